/**
 * Word lists of the entity reading (read-entities.ts). Lower-case; a capitalised word is looked up
 * folded. Each list answers one question about a capitalised word that is NOT a name although it
 * is written like one.
 */

/**
 * Words that open a sentence (so they are capitalised) and are never names: discourse words,
 * greetings, common adverbs and verbs of chat turns and notes. Only consulted for the first word
 * of a sentence; the stop-word list covers articles, pronouns and conjunctions.
 */
// biome-ignore format: a word list reads best filled
export const SENTENCE_STARTERS: ReadonlySet<string> = new Set([
  "yesterday", "today", "tomorrow", "tonight", "also", "thanks", "thank", "congrats",
  "congratulations", "sounds", "sure", "great", "awesome", "nice", "cool", "good", "glad",
  "sorry", "please", "maybe", "hopefully", "actually", "honestly", "anyway", "well", "lol",
  "haha", "last", "next", "every", "remember", "let", "let's", "keep", "love", "wish", "hope",
  "looking", "still", "really", "definitely", "absolutely", "totally", "exactly", "recently",
  "finally", "lately", "sometimes", "usually", "always", "never", "meeting", "note", "update",
  "reminder", "decision", "prefers", "likes", "user", "users", "wow", "oh", "hey", "hi", "hello",
  "yes", "yeah", "yep", "no", "nope", "ok", "okay", "alright", "right", "true", "exactly",
  "interesting", "amazing", "wonderful", "beautiful", "perfect", "fantastic", "lovely", "sweet",
  "bye", "goodbye", "cheers", "welcome", "anyway", "besides", "plus", "however", "instead",
  "first", "second", "then", "later", "soon", "now", "currently", "since", "once", "ever",
  "whenever", "wherever", "whatever", "whoever", "everyone", "everything", "someone",
  "something", "nothing", "anyone", "anything", "nobody", "somebody", "lots", "many", "much",
  "one", "two", "three", "several", "another", "such", "like", "went", "got", "had", "made",
  "took", "saw", "started", "moved", "bought", "visited", "met", "joined", "tried", "planning",
  "going", "working", "painting", "reading", "running", "cooking", "writing", "learning",
  "thinking", "feeling", "seeing", "having", "getting", "doing", "taking", "making", "being",
  "trying", "spent", "spending", "check", "make", "take", "try", "go", "come", "see", "look",
  "tell", "ask", "call", "send", "buy", "use", "need", "want", "get", "give", "find", "know",
  "think", "feel", "believe", "guess", "seems", "seem", "sounds", "looks", "feels", "means",
  "morning", "evening", "afternoon", "night", "weekend", "week", "month", "year", "family",
  "friends", "kids", "work", "school", "home", "life", "art", "music", "books", "dinner",
  "lunch", "breakfast", "coffee", "happy", "proud", "excited", "busy", "tired", "important",
  "todo", "fyi", "btw", "omg", "agreed", "done", "fixed", "added", "removed", "changed",
  "deployed", "shipped", "released", "discussed", "decided", "switched", "prefer", "favorite",
  "favourite", "both", "either", "neither", "whether", "though", "although", "because",
  "unless", "until", "while", "during", "after", "before", "about", "around", "without",
  "within", "along", "already", "almost", "just", "even", "only", "quite", "very", "pretty",
  "super", "kind", "sort", "lot", "bit", "mine", "yours", "dude", "guys", "man", "sadly",
  "luckily", "basically", "unfortunately", "fortunately", "seriously", "obviously",
]);

/** Capitalised words that name no person, place, organisation or product anywhere in a text. */
// biome-ignore format: a word list reads best filled
export const NEVER_NAMES: ReadonlySet<string> = new Set([
  "i", "i'm", "i've", "i'll", "i'd", "ok", "okay", "lol", "omg", "btw", "fyi", "asap", "ps",
  "tv", "diy", "ai", "ui", "id", "pdf", "usb", "ceo", "cto", "lgbtq", "lgbt", "lgbtq+", "ptsd",
  "adhd", "mom", "dad", "mum", "mama", "papa", "grandma", "grandpa", "granny", "sis", "bro",
  "god", "christmas", "easter", "thanksgiving", "halloween", "hanukkah", "diwali", "ramadan",
  "english", "spanish", "french", "german", "italian", "chinese", "japanese", "korean",
  "portuguese", "russian", "arabic", "hindi", "dutch", "swedish", "greek", "latin", "american",
  "british", "canadian", "mexican", "indian", "european", "african", "asian", "user", "assistant",
  "thai", "vietnamese", "irish", "scottish", "polish", "turkish", "brazilian", "australian",
  "mri", "er", "icu", "gps", "faq", "api", "sql", "url", "html", "css", "json", "http", "vip",
  "am", "pm", "a.m", "p.m", "hmm", "ah", "aw", "aww", "yay", "ugh", "wow", "oh", "hey", "hi",
]);

/** Month and weekday names: a date, not an entity, unless part of a longer name. */
// biome-ignore format: a word list reads best filled
export const CALENDAR_WORDS: ReadonlySet<string> = new Set([
  "january", "february", "march", "april", "may", "june", "july", "august", "september",
  "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
  "sept", "oct", "nov", "dec", "monday", "tuesday", "wednesday", "thursday", "friday",
  "saturday", "sunday",
]);

/** Titles before a name ("Dr. Lee" is Lee); their period does not end a sentence. */
// biome-ignore format: a word list reads best filled
export const HONORIFICS: ReadonlySet<string> = new Set([
  "mr", "mrs", "ms", "miss", "dr", "prof", "sir", "madam", "mx", "st", "jr", "sr", "aunt",
  "uncle", "auntie", "coach", "chef", "captain", "officer", "professor", "doctor", "president",
]);

/** Lower-case words that may join two capitalised words into one name ("Bank of America"). */
// biome-ignore format: a word list reads best filled
export const NAME_JOINERS: ReadonlySet<string> = new Set([
  "of", "de", "da", "del", "der", "di", "du", "la", "le", "van", "von", "y", "&", "the",
]);

/** Speaker-label words that are headings, not speakers ("Note: ...", "Q: ..."). */
// biome-ignore format: a word list reads best filled
export const LABEL_WORDS: ReadonlySet<string> = new Set([
  "note", "notes", "update", "todo", "re", "fwd", "q", "a", "question", "answer", "summary",
  "decision", "reminder", "tip", "warning", "fyi", "ps", "important", "user", "assistant",
  "system", "bot", "ai", "me", "status", "goal", "goals", "idea", "ideas", "plan", "result",
  "results", "action", "actions", "next steps", "context", "problem", "solution", "fix",
  "example", "edit", "source", "sources", "date", "time", "location", "where", "when", "who",
  "what", "why", "how", "subject", "topic", "agenda", "attendees",
]);

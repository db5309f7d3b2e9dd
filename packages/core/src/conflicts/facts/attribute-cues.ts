import { lookupTable } from "../../algorithms/lookup-table.js";
import type { Fact } from "./fact-parts.js";
import { normalizeWord } from "./fact-words.js";

/**
 * Words that tie a fact told with a general verb to a single-valued attribute whose values are
 * names: "I see Dr. Evans for dental care" is about the user's dentist, "I'm registered with
 * Dr. Shah" about their doctor, "The user gets internet from Telekom" about their provider.
 * Extend here.
 */
const CUES = lookupTable<readonly string[]>({
  dentist: ["dental", "teeth", "tooth", "dentist"],
  doctor: ["registered", "gp", "doctor", "physician", "check-up", "checkup"],
  gym: ["gym", "trains", "training", "workout", "exercises"],
  internet_provider: ["internet", "broadband", "wifi", "fibre", "fiber"],
  insurance: ["insured", "insurance", "insurer"],
  bank: ["banks", "bank", "account", "accounts"],
  school: ["pupil", "student", "attends", "enrolled", "school"],
  hairdresser: ["hair", "haircut", "haircuts", "barber", "salon"],
  energy_supplier: ["energy", "electricity", "power", "gas"],
  mobile_provider: ["mobile", "cell", "phone", "sim"],
  therapist: ["therapy", "counselling", "counseling", "sessions"],
  vet: ["vet", "veterinary", "jabs", "vaccinations"],
  landlord: ["rents", "renting", "rented", "lease", "tenancy"],
});

const cueStems = new Map(
  Object.entries(CUES).map(([attribute, words]) => [
    attribute,
    new Set(words.map((word) => normalizeWord(word))),
  ]),
);

/** The cue words of an attribute, as typed ("dental", "teeth" for `dentist`). */
export const attributeCues = (attribute: string): readonly string[] => CUES[attribute] ?? [];

/** The attributes whose cues a fact's words contain ("dental care" -> `dentist`). */
export function cuedBy(predicate: readonly string[]): string[] {
  return [...cueStems]
    .filter(([, cues]) => predicate.some((word) => cues.has(word)))
    .map(([attribute]) => attribute);
}

/** Readings that name no attribute of their own: a verb, a passive, "is", "has", "uses". */
const isGeneric = (attribute: string) =>
  attribute.startsWith("verb:") ||
  attribute.startsWith("passive:") ||
  attribute === "be" ||
  attribute === "changed" ||
  attribute === "owns" ||
  attribute === "uses";

const namesSomething = (fact: Fact) => fact.named === true || /(^|\s)\p{Lu}/u.test(fact.valueText);

/**
 * The attribute two facts share when one names it and the other, told with a general verb, cues
 * it ("I see Dr. Evans for dental care" / "My dentist is now Dr. Okoro"; "The user banks with
 * Sparkasse" / "The user moved all accounts to N26"), the newer one says it changed, and both
 * values are names. Undefined otherwise.
 */
export function cuedAttribute(older: Fact, newer: Fact): string | undefined {
  if (older.attribute === undefined || newer.attribute === undefined) return undefined;
  if (!newer.change || newer.additive || newer.negated || older.negated) return undefined;
  if (!namesSomething(older) || !namesSomething(newer)) return undefined;
  const [named, general] = isGeneric(older.attribute) ? [newer, older] : [older, newer];
  const cues = cueStems.get(named.attribute!);
  if (cues === undefined || !isGeneric(general.attribute!)) return undefined;
  return general.predicate.some((word) => cues.has(word)) ? named.attribute : undefined;
}

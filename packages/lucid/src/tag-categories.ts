import type { Category } from "@memory/api";

/**
 * How the external tool's tags map to categories (README, "Tags"). Tags are compared in lower
 * case; a tag not in the table gives the custom category {@link UNKNOWN_TAG_CATEGORY}.
 */
export const TAG_CATEGORIES: Readonly<Record<string, Category>> = {
  decision: "core",
  learning: "core",
  solution: "core",
  preference: "core",
  fact: "core",
  context: "daily",
  bug: "daily",
  session: "daily",
  conversation: "conversation",
};

/** Category of external lines whose tag is not in {@link TAG_CATEGORIES}. */
export const UNKNOWN_TAG_CATEGORY = "lucid";

export function categoryOfTag(tag: string): Category {
  return TAG_CATEGORIES[tag.toLowerCase()] ?? UNKNOWN_TAG_CATEGORY;
}

/** The tag a local category is sent as (the `{tag}` placeholder): the reverse of the table. */
export function tagOfCategory(category: Category): string {
  if (category === "core") return "decision";
  if (category === "daily") return "context";
  if (category === "conversation") return "conversation";
  return "learning";
}

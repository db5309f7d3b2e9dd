const OFFSET = /(?:[zZ]|[+-]\d{2}:?\d{2})$/;
const ISO_LIKE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?/;

/**
 * A source timestamp as UTC ISO-8601, or undefined. Numbers are Unix seconds (ChatGPT
 * `create_time`, Slack `ts` as a string of seconds). An ISO time with an offset keeps it; one
 * without an offset is read as UTC, never in the host's time zone (a time zone the file does
 * not state cannot be guessed, and the host's would make the result depend on the machine).
 */
export function sourceTime(value: unknown): string | undefined {
  let date: Date | undefined;
  if (typeof value === "number" && Number.isFinite(value) && value > 0)
    date = new Date(value * 1000);
  else if (typeof value === "string") {
    const text = value.trim();
    if (/^\d+(?:\.\d+)?$/.test(text)) date = new Date(Number(text) * 1000);
    else if (ISO_LIKE.test(text)) {
      const normalized = text.replace(" ", "T");
      const dated = normalized.length === 10 ? `${normalized}T00:00:00` : normalized;
      date = new Date(OFFSET.test(dated) ? dated : `${dated}Z`);
    }
  }
  if (date === undefined || Number.isNaN(date.getTime())) return undefined;
  return date.toISOString();
}

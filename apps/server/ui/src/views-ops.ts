import { request } from "./api.js";
import type { ViewContext } from "./app.js";
import { formatTime, h } from "./dom.js";

interface Job {
  name: string;
  lastRunAt: string | null;
  nextRunAt: string | null;
  lastError: { message: string; at: string } | null;
  lastReport: unknown;
  runs: number;
}

function pairs(rows: [string, string | number][]): HTMLElement {
  return h(
    "dl",
    { class: "meta" },
    ...rows.flatMap(([name, value]) => [h("dt", {}, name), h("dd", {}, String(value))]),
  );
}

export async function jobsView({ root }: ViewContext): Promise<void> {
  const view = h("section", { "data-view": "jobs" }, h("h1", {}, "Jobs"));
  root.replaceChildren(view);
  const { jobs } = await request<{ jobs: Job[] }>("GET", "/v1/jobs");
  for (const job of jobs) {
    view.append(
      h(
        "article",
        { class: "card", "aria-labelledby": `job-${job.name}` },
        h("h2", { id: `job-${job.name}` }, job.name),
        pairs([
          ["Last run", formatTime(job.lastRunAt)],
          ["Next run", job.nextRunAt ? formatTime(job.nextRunAt) : "not scheduled"],
          ["Runs", job.runs],
          [
            "Last error",
            job.lastError ? `${job.lastError.message} (${formatTime(job.lastError.at)})` : "none",
          ],
        ]),
        h("h3", {}, "Last report"),
        h(
          "pre",
          {},
          job.lastReport === undefined || job.lastReport === null
            ? "none"
            : JSON.stringify(job.lastReport, null, 2),
        ),
      ),
    );
  }
}

interface Ready {
  status: string;
  version: string;
  backend: string;
  reasons: string[];
  pendingEmbeddings: number;
  vector: {
    status: string;
    providerFingerprint?: string;
    storedFingerprint?: string;
    reason?: string;
  };
}

export async function healthView({ root }: ViewContext): Promise<void> {
  const view = h("section", { "data-view": "health" }, h("h1", {}, "Health"));
  root.replaceChildren(view);
  const [health, ready] = await Promise.all([
    request<{ status: string; version: string; uptimeSeconds: number }>("GET", "/healthz"),
    // 503 still carries the report: that is when it matters most.
    request<Ready>("GET", "/readyz", undefined, [503]),
  ]);
  const writable = !ready.reasons.some((reason) =>
    reason.startsWith("the store cannot be written"),
  );
  view.append(
    pairs([
      ["Liveness", health.status],
      ["Readiness", ready.status],
      ["Version", health.version],
      ["Uptime", `${health.uptimeSeconds} s`],
      ["Backend", ready.backend],
      ["Storage writable", writable ? "yes" : "no"],
      ["Pending embeddings", ready.pendingEmbeddings],
      [
        "Vector search",
        ready.vector.status + (ready.vector.reason ? `: ${ready.vector.reason}` : ""),
      ],
      ["Provider fingerprint", ready.vector.providerFingerprint ?? "–"],
      ["Stored fingerprint", ready.vector.storedFingerprint ?? "–"],
    ]),
    h("h2", {}, "Reasons"),
    ready.reasons.length === 0
      ? h("p", {}, "None: the server is ready.")
      : h("ul", {}, ...ready.reasons.map((reason) => h("li", {}, reason))),
  );
}

import { listJobs } from "../operations/jobs.js";
import { defineRoute, errorResponses, json } from "../route-spec.js";
import { JobsResponseSchema } from "../wire/responses.js";

/** The maintenance jobs' state. */
export const jobRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/jobs",
    operationId: "listJobs",
    summary:
      "Maintenance jobs (hygiene, snapshot, curate, transcripts): last run, next run, last report, last error",
    description:
      "Read from the job state in the store, so it shows the runs of every server and `memory worker` on this store. Any valid token may read it; the numbers cover every namespace.",
    tag: "jobs",
    responses: {
      200: { description: "One item per known job.", schema: JobsResponseSchema },
      401: errorResponses[401],
    },
    handler: async ({ context }) => json({ jobs: await listJobs(context.memory) }),
  }),
];

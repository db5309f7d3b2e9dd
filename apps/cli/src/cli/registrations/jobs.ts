import { defineCommand } from "./command-registration.js";

export const jobsCommand = defineCommand((parent, action) => {
  parent
    .command("jobs")
    .description(
      "maintenance jobs (hygiene, snapshot, curate, transcripts): last run, next run, last result",
    )
    .action(action(() => import("../../commands/jobs.js")));
});

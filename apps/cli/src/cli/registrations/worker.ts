import { defineCommand } from "./command-registration.js";

export const workerCommand = defineCommand((parent, action) => {
  parent
    .command("worker")
    .description("run only the maintenance jobs on their schedule until Ctrl-C")
    .action(action(() => import("../../commands/worker.js")));
});

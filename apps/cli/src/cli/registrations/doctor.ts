import { defineCommand } from "./command-registration.js";

export const doctorCommand = defineCommand((parent, action) => {
  parent
    .command("doctor")
    .description("check configuration, backend, full text, embeddings, pending work and size")
    .action(action(() => import("../../commands/doctor.js")));
});

import { defineCommand } from "./command-registration.js";

export const configShowCommand = defineCommand((parent, action) => {
  parent
    .command("show")
    .description("print the effective configuration, where each value came from, secrets masked")
    .action(action(() => import("../../commands/config-show.js")));
});

export const configValidateCommand = defineCommand((parent, action) => {
  parent
    .command("validate [file]")
    .description("check a configuration file (default: the one this run would use)")
    .action(action(() => import("../../commands/config-validate.js")));
});

/** `memory config show|validate`. */
export const configCommand = defineCommand((parent, action) => {
  const config = parent.command("config").description("inspect and check the configuration");
  configShowCommand(config, action);
  configValidateCommand(config, action);
});

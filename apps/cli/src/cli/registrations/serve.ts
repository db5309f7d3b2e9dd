import { parsePort, parseWorkers } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

export const serveCommand = defineCommand((parent, action) => {
  parent
    .command("serve")
    .description("start the HTTP JSON API (delegates to @memory/server)")
    .option("--host <host>", "interface to listen on")
    .option("-p, --port <port>", "port to listen on (0: any free port)", parsePort)
    .option(
      "-w, --workers <n>",
      "worker processes sharing the port (default: [server].workers, else the number of cores; 1: this process)",
      parseWorkers,
    )
    .option("--allow-unauthenticated-loopback", "serve without tokens (loopback hosts only)")
    .action(action(() => import("../../commands/serve.js")));
});

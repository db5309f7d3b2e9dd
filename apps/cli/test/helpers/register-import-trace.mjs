import { register } from "node:module";

register("./import-trace-hooks.mjs", import.meta.url);

import { createMemoryFacade, InMemoryDriver } from "@memory/core";
import { relationsGroup } from "../src/index.js";

/** The reference driver with its relations switched off: a backend that does not declare them. */
class WithoutRelations extends InMemoryDriver {
  override readonly capabilities = { ...new InMemoryDriver().capabilities, relations: false };
}

// The group's test for a backend without `capabilities.relations`: every operation is refused
// with UNSUPPORTED, and imported edges are reported, not silently dropped.
relationsGroup({
  name: "in-memory without relations",
  supports: [],
  create: async () => createMemoryFacade(new WithoutRelations()),
});

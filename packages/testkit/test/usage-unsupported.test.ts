import { createMemoryFacade, InMemoryDriver } from "@memory/core";
import { usageGroup } from "../src/index.js";

/** The reference driver with its usage switched off: a backend that does not declare it. */
class WithoutUsage extends InMemoryDriver {
  override readonly capabilities = { ...new InMemoryDriver().capabilities, usage: false };
}

// The group's test for a backend without `capabilities.usage`: recalls get no id and every
// usage operation is refused with UNSUPPORTED.
usageGroup({
  name: "in-memory without usage",
  supports: [],
  create: async () => createMemoryFacade(new WithoutUsage()),
});

import { createInMemoryMemory } from "@memory/testkit";
import {
  ALL_MEMORY_TOOL_NAMES,
  type AnyMemoryToolName,
  MEMORY_TOOL_NAMES,
  memoryToolDefinitions,
  memoryToolSpec,
} from "@memory/tools";
import { describe, expect, it } from "vitest";
import { listInProcessTools } from "./mcp-clients.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema, compared field by field
type Json = Record<string, any>;

/**
 * The words a model reads live once, in @memory/tools: the MCP server shows its specs (with the
 * notes of a host that bounds results) and its input fields, as the adapters do.
 */
describe("MCP tool descriptions", () => {
  it("are the shared specs' names, titles, descriptions and annotations", async () => {
    const tools = await listInProcessTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...ALL_MEMORY_TOOL_NAMES].sort());
    for (const tool of tools) {
      const spec = memoryToolSpec(tool.name as AnyMemoryToolName, {
        boundedResults: true,
      });
      expect(tool.description, tool.name).toBe(spec.description);
      expect(tool.title, tool.name).toBe(spec.title);
      expect(tool.annotations, tool.name).toMatchObject(spec.annotations);
    }
  });

  it("start with the adapters' words and offer their input fields as they are", async () => {
    const tools = await listInProcessTools();
    const shared = memoryToolDefinitions(createInMemoryMemory());
    expect(shared.map((definition) => definition.name)).toEqual([...MEMORY_TOOL_NAMES]);
    for (const definition of shared) {
      const tool = tools.find((candidate) => candidate.name === definition.name)!;
      expect(tool.description?.startsWith(definition.description), tool.name).toBe(true);
      const fields = (definition.inputJsonSchema as Json).properties as Json;
      const offered = tool.inputSchema.properties as Json;
      expect(Object.keys(fields).length, tool.name).toBeGreaterThan(1);
      // The same description and the same bounds, field by field (namespace included).
      for (const [field, schema] of Object.entries(fields))
        expect(offered[field], `${tool.name}.${field}`).toEqual(schema);
    }
  });
});

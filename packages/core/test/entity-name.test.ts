import { describe, expect, it } from "vitest";
import { entityId } from "../src/entities/entity-name.js";

describe("entityId", () => {
  it("folds case, possessives, typographic apostrophes and a leading article into one id", () => {
    expect(entityId("Melanie's")).toBe("melanie");
    expect(entityId("MELANIE")).toBe("melanie");
    expect(entityId("James\u2019")).toBe("james");
    expect(entityId("the  Golden Gate Bridge")).toBe("golden gate bridge");
    expect(entityId('  "Caroline," ')).toBe("caroline");
  });

  it("keeps apostrophes inside a name and letters outside ASCII", () => {
    expect(entityId("O\u2019Brien")).toBe("o'brien");
    expect(entityId("São Paulo")).toBe("são paulo");
  });

  it("has no id for text without letters or too long to be a name", () => {
    expect(entityId("123")).toBeUndefined();
    expect(entityId("  ")).toBeUndefined();
    expect(entityId("word ".repeat(30))).toBeUndefined();
  });
});

import { MemoryError } from "@memory/api";
import { defaultConfig } from "@memory/core";
import { describe, expect, it } from "vitest";
import { describeStore, doctorHints } from "../src/index.js";

// No server needed: describing a store never connects.
const config = (postgres: Record<string, unknown>) => ({ ...defaultConfig(), postgres });

describe("postgres: describeStore", () => {
  it("names the database and schema, never the password", () => {
    const described = describeStore(
      config({
        url: "postgresql://app:s3cret@db.example:6543/prod?sslmode=require",
        schema: "mem",
      }),
      {},
    );
    expect(described.identity).toBe("postgres://db.example:6543/prod#mem");
    expect(described.location).toBe(
      "postgresql://app@db.example:6543/prod?sslmode=require (schema mem)",
    );
    expect(JSON.stringify(described)).not.toContain("s3cret");
  });

  it("gives the same identity whatever the user, password, scheme or default port", () => {
    const a = describeStore(config({ url: "postgres://alice:x@localhost/app" }), {});
    const b = describeStore(config({}), { DATABASE_URL: "postgresql://bob@localhost:5432/app" });
    expect(a.identity).toBe("postgres://localhost:5432/app#memory");
    expect(b.identity).toBe(a.identity);
    expect(
      describeStore(config({ url: "postgres://localhost/app", schema: "other" }), {}).identity,
    ).not.toBe(a.identity);
  });

  it("strips the password from a keyword/value connection string", () => {
    const described = describeStore(config({ url: "host=db dbname=app password=s3cret" }), {});
    expect(described.location).not.toContain("s3cret");
  });

  it("rejects the configurations createMemoryFromConfig rejects", () => {
    const missing = (() => {
      try {
        describeStore(defaultConfig(), {});
      } catch (error) {
        return error;
      }
    })();
    expect(MemoryError.hasCode(missing, "CONFIG")).toBe(true);
    expect(() => describeStore(config({ uri: "x" }), {})).toThrow(/\[postgres\]\.uri/);
  });
});

// memory doctor used to hold this advice behind `backend === "postgres"`; the backend declares it.
describe("postgres: doctorHints", () => {
  it("says where the server was looked for, by which setting, never the password", () => {
    const advice = doctorHints.unavailable!(
      config({ url: "postgresql://app:s3cret@db.example:6543/prod" }),
      "connect ECONNREFUSED 10.0.0.1:6543",
      { file: "/etc/memory.toml", env: {} },
    );
    expect(advice.message).toBe("PostgreSQL is unreachable at db.example:6543 (ECONNREFUSED)");
    expect(advice.fix).toContain("[postgres].url in /etc/memory.toml");
    expect(JSON.stringify(advice)).not.toContain("s3cret");
    const refused = doctorHints.unavailable!(
      { ...defaultConfig(), postgres: {} },
      'password authentication failed for user "app"',
      { env: { DATABASE_URL: "postgresql://app@db:5432/x" } },
    );
    expect(refused.message).toMatch(/^PostgreSQL at db:5432 refused to open the store/);
    expect(refused.fix).toContain("DATABASE_URL");
    expect(doctorHints.notWritable!(config({}))).toContain("[postgres].url user");
  });
});

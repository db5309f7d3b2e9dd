import type { Capabilities, Memory } from "@memory/api";
import { it } from "vitest";
import {
  CONFORMANCE_FEATURES,
  type ConformanceFeature,
  type ConformanceOptions,
} from "./conformance-options.js";

/**
 * A declared feature whose precondition is missing at run time (the backend says it takes part
 * in a group, then cannot): the test fails with this instead of skipping.
 */
export class UnmetDeclarationError extends Error {
  readonly feature: ConformanceFeature;
  constructor(suite: string, feature: ConformanceFeature, missing: string, fix: string) {
    super(`${suite} declares "${feature}", but ${missing}: ${fix}.`);
    this.name = "UnmetDeclarationError";
    this.feature = feature;
  }
}

/** Whether the backend under test declares `feature`. */
export function declares(options: ConformanceOptions, feature: ConformanceFeature): boolean {
  return options.supports.includes(feature);
}

/** Registers nothing: a test of an undeclared feature is not in the run at all (not even skipped). */
const notRegistered = (() => {}) as unknown as typeof it;

/**
 * `it` when the backend declares every one of `features`; otherwise a function that registers
 * nothing. Not `it.runIf`, which would list the test as skipped.
 */
export function itWith(options: ConformanceOptions, ...features: ConformanceFeature[]): typeof it {
  return features.every((feature) => declares(options, feature)) ? it : notRegistered;
}

/** The features a backend does not declare, in the suite's order. */
export function undeclared(options: ConformanceOptions): ConformanceFeature[] {
  return CONFORMANCE_FEATURES.filter((feature) => !declares(options, feature));
}

/** Features that stand for a `Capabilities` flag, which a run-time check compares. */
const CAPABILITY_OF: Partial<Record<ConformanceFeature, keyof Capabilities>> = {
  vectorSearch: "vectorSearch",
  cjkSearch: "cjkSearch",
  persistent: "persistent",
  deferredEmbedding: "deferredEmbedding",
  relations: "relations",
  usage: "usage",
};

/** Features that need others declared too. */
const NEEDS: Partial<Record<ConformanceFeature, ConformanceFeature[]>> = {
  persistent: ["sharedStore"],
  deferredEmbedding: ["vectorSearch"],
  multiProcess: ["sharedStore"],
};

/**
 * Fails unless `memory` (opened by a test of a group `feature` enables; with an embedder where
 * the feature needs one) has the capability the feature stands for. The precondition check of
 * every declared group: the test fails, saying what is missing, instead of skipping.
 */
export function requireFeature(
  options: ConformanceOptions,
  memory: Memory,
  feature: ConformanceFeature,
): void {
  const flag = CAPABILITY_OF[feature];
  if (flag && !memory.capabilities[flag]) {
    throw new UnmetDeclarationError(
      options.name,
      feature,
      `capabilities.${flag} is false on the instance the factory returned${
        feature === "vectorSearch" || feature === "deferredEmbedding"
          ? " (opened with an embedder)"
          : ""
      }`,
      `pass context.embedder (and the rest of the factory context) on to the backend, or remove "${feature}" from supports`,
    );
  }
}

/**
 * What the declarations alone get wrong (no instance needed): a feature declared without the
 * features or options it needs. Empty when consistent.
 */
export function declarationProblems(options: ConformanceOptions): string[] {
  const problems: string[] = [];
  for (const feature of options.supports) {
    for (const needed of NEEDS[feature] ?? [])
      if (!declares(options, needed))
        problems.push(`"${feature}" needs "${needed}" declared as well`);
  }
  if (declares(options, "sharedStore") && !options.createShared)
    problems.push(`"sharedStore" needs the createShared() option: one store, opened several times`);
  if (declares(options, "multiProcess") && !options.childOpener)
    problems.push(
      `"multiProcess" needs the childOpener option: a module whose openShared(location, { now }) opens the store in a child process`,
    );
  return problems;
}

/**
 * Capabilities the instance has but the suite options do not declare: claiming a capability
 * means passing its group, so leaving it undeclared would hide it from the suite.
 */
export function undeclaredCapabilities(
  options: ConformanceOptions,
  capabilities: Capabilities,
): string[] {
  const missing: string[] = [];
  for (const [feature, flag] of Object.entries(CAPABILITY_OF) as [
    ConformanceFeature,
    keyof Capabilities,
  ][]) {
    if (capabilities[flag] && !declares(options, feature))
      missing.push(`capabilities.${flag} is true but "${feature}" is not declared`);
  }
  if (capabilities.multiInstance && !declares(options, "sharedStore"))
    missing.push(`capabilities.multiInstance is true but "sharedStore" is not declared`);
  return missing;
}

import type { FactReading } from "@memory/api";
import type { Fact } from "./read-fact.js";
import { subjectText } from "./read-subject.js";

/** A fact as the decision record shows it. */
export function factReading(fact: Fact): FactReading {
  const markers: FactReading["markers"] = [];
  if (fact.additive) markers.push("additive");
  if (fact.ended) markers.push("ended");
  if (fact.change) markers.push("change");
  const value = fact.valueText || fact.value.join(" ");
  return {
    ...(fact.subject === undefined ? {} : { subject: subjectText(fact.subject) }),
    ...(fact.attribute === undefined ? {} : { attribute: fact.attribute }),
    ...(fact.cardinality === undefined ? {} : { cardinality: fact.cardinality }),
    ...(value === "" ? {} : { value }),
    negated: fact.negated,
    markers,
    ...(fact.ends.length === 0 ? {} : { ends: fact.ends.map((words) => words.join(" ")) }),
    ...(fact.note === undefined ? {} : { note: fact.note }),
  };
}

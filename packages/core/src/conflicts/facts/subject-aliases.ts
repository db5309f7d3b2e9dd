import type { Fact } from "./fact-parts.js";
import { type SubjectNode, type SubjectPhrase, subjectText } from "./read-subject.js";

/**
 * Who a name is, learnt from the facts at hand: "The user's sister Maya lives in Hamburg" says
 * that "Maya" and "the user's sister" are one person, so "Maya upgraded to an iPhone 15" is about
 * the subject of "The user's sister's phone is a Pixel 7". Only an unambiguous alias is used: with
 * two sisters named in the facts, "the user's sister" stays unresolved.
 */
export class SubjectAliases {
  /** "@user|sister" -> the names given to that relation. */
  private readonly namesByRelation = new Map<string, Set<string>>();
  /** "maya" -> the chains that name her ("@user > sister maya"), as text and as nodes. */
  private readonly chainsByName = new Map<string, Map<string, SubjectNode[]>>();

  constructor(facts: readonly Fact[]) {
    for (const fact of facts) {
      const nodes = fact.subject?.nodes ?? [];
      nodes.forEach((node, index) => {
        if (node.name === undefined || node.words.length === 0 || node.self) return;
        const owner = nodes.slice(0, index);
        const relation = relationKey(owner, node);
        add(this.namesByRelation, relation, node.name);
        const chain = nodes.slice(0, index + 1);
        const chains = this.chainsByName.get(node.name) ?? new Map<string, SubjectNode[]>();
        chains.set(subjectText({ nodes: chain }), chain);
        this.chainsByName.set(node.name, chains);
      });
    }
  }

  /** The subject with a bare name given its relation and a bare relation given its name. */
  resolve(subject: SubjectPhrase | undefined): SubjectPhrase | undefined {
    if (subject === undefined || subject.unresolved !== undefined) return subject;
    let nodes = subject.nodes;
    const head = nodes[0];
    if (head?.name !== undefined && head.words.length === 0 && !head.self) {
      const chains = this.chainsByName.get(head.name);
      if (chains?.size === 1) nodes = [...[...chains.values()][0]!, ...nodes.slice(1)];
    }
    nodes = nodes.map((node, index) => {
      if (node.name !== undefined || node.self || node.words.length === 0) return node;
      const names = this.namesByRelation.get(relationKey(nodes.slice(0, index), node));
      return names?.size === 1 ? { ...node, name: [...names][0]! } : node;
    });
    return nodes === subject.nodes ? subject : { nodes };
  }
}

const relationKey = (owner: readonly SubjectNode[], node: SubjectNode) =>
  `${subjectText({ nodes: [...owner] })}|${node.words.join(" ")}`;

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  const values = map.get(key) ?? new Set<string>();
  values.add(value);
  map.set(key, values);
}

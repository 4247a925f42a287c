// The entity model of docs/policy.md as a Cedar schema, with the context the tests' policies read.
export const SCHEMA = `entity Crew;
entity Tag;
entity Agent in [Crew];
entity Caller;
entity Anonymous;
entity Tool in [Tag] {
  name: String,
  tags: Set<String>,
  destructive: Bool,
  readOnly: Bool,
  idempotent: Bool,
  openWorld: Bool,
};
action call appliesTo {
  principal: [Agent, Caller, Anonymous],
  resource: [Tool],
  context: { path?: String, count?: Long, amount?: decimal, force?: Bool, to?: Set<String> },
};
`;

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected a rejection");
}

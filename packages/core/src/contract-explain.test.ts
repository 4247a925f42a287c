import { describe, expect, it } from "vitest";
import { Agent, ToolHooks, toolwareCode } from "./index.js";

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("explain() reads its query once", () => {
  const junior = new Agent({ role: "junior" });
  const hooks = new ToolHooks();
  hooks.before(() => {}, { name: "for-juniors", agents: "junior" });
  hooks.before(() => {}, { name: "for-all" });

  it("a getter cannot show the check one value and the lookup another", () => {
    let reads = 0;
    const query = {
      get toolName() {
        reads++;
        return reads === 1 ? "delete_file" : (42 as never);
      },
      get agent() {
        return reads > 1 ? undefined : junior;
      },
    };
    expect(hooks.explain(query).map((h) => h.name)).toEqual(["for-juniors", "for-all"]);
    expect(reads).toBe(1);
  });

  it("a getter or Proxy trap that throws is a coded TypeError, not the trap's error", () => {
    const getter = thrown(() =>
      hooks.explain({
        get toolName(): string {
          throw new Error("trap");
        },
      }),
    );
    expect(getter).toBeInstanceOf(TypeError);
    expect(toolwareCode(getter)).toBe("TOOLWARE_INVALID_ARGUMENT");
    const proxy = new Proxy(
      { toolName: "t" },
      {
        ownKeys() {
          throw new Error("trap");
        },
      },
    );
    expect(toolwareCode(thrown(() => hooks.explain(proxy)))).toBe("TOOLWARE_INVALID_ARGUMENT");
    const { proxy: revoked, revoke } = Proxy.revocable({ toolName: "t" }, {});
    revoke();
    expect(toolwareCode(thrown(() => hooks.explain(revoked)))).toBe("TOOLWARE_INVALID_ARGUMENT");
  });
});

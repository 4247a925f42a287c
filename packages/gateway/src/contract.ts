import type { ToolHooks } from "@toolware/core";
import type { PolicyApi } from "@toolware/policy";

// The public shape of the gateway: what the CLI, the docs and later work (conformance, Redis-shared limits,
// upstream restarts, benchmarks) build on. Implementations live beside this file; changes here stay compatible.

/** What every upstream has. */
export interface UpstreamBase {
  /** Names the upstream in prefixes, events and `gatewayCall(ctx).upstream`: letters, digits, `-` and `_`. */
  readonly name: string;
  /**
   * The prefix its tools, prompts and resource templates are exposed under (`<prefix><separator><name>`), or
   * `false` to expose them by their own names (merged). Default: the upstream's `name` when the gateway fronts
   * several upstreams, none for one.
   */
  readonly prefix?: string | false;
  /**
   * `false` marks an upstream whose tool annotations can only make the policy stricter: its `readOnlyHint`,
   * `idempotentHint`, `destructiveHint` and `openWorldHint` are dropped before the policy sees them, and MCP's defaults
   * for a tool that claims nothing stand in (`destructiveHint: true`, `openWorldHint: true`). Default true.
   */
  readonly trusted?: boolean;
}

/** An upstream MCP server the gateway starts as a child process and speaks to over stdio. */
export interface StdioUpstreamConfig extends UpstreamBase {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to a minimal inherited environment (the SDK's default set: PATH, HOME, …). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** How this upstream is restarted when it exits or breaks the protocol; overrides `GatewayOptions.restart` key by key. */
  readonly restart?: RestartOptions;
}

/**
 * How a stdio upstream that exits, or writes something on stdout that is not JSON-RPC, is restarted. Each client
 * session has its own child process, so each session restarts its own. The delay before a restart is
 * `initialDelayMs` doubled for every restart still in the window, at most `maxDelayMs`, less a random share of up
 * to `jitter`. More than `maxRestarts` restarts within `windowMs` and the upstream stays down (calls get an error
 * result) until a call comes once the window has room again.
 */
export interface RestartOptions {
  /** Restarts allowed within `windowMs`; 0 turns restarting off. Default 5. */
  readonly maxRestarts?: number;
  /** Default 60 000 (one minute). */
  readonly windowMs?: number;
  /** The delay before a first restart. Default 250. */
  readonly initialDelayMs?: number;
  /** The longest delay. Default 30 000. */
  readonly maxDelayMs?: number;
  /** The largest share of a delay taken off at random (0 to 1), so sessions do not restart in step. Default 0.2. */
  readonly jitter?: number;
}

/** An upstream MCP server reached over Streamable HTTP. */
export interface HttpUpstreamConfig extends UpstreamBase {
  readonly url: string;
  /** Sent with every request (an `Authorization` header, say). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One upstream: a stdio command or a Streamable HTTP URL. */
export type UpstreamConfig = StdioUpstreamConfig | HttpUpstreamConfig;

/** Options of `createGateway`. */
export interface GatewayOptions {
  /** The servers behind the gateway: one or more. */
  readonly upstreams: readonly UpstreamConfig[];
  /**
   * The stack every `tools/call` runs through (the policy registered on it, and any other pack). Give it
   * `humanInput: gatewayElicitation()` for approvals asked through the client's elicitation.
   */
  readonly hooks: ToolHooks;
  /** The policy registered on `hooks`: used to hide the tools it denies outright from `tools/list`. */
  readonly policy?: Pick<PolicyApi, "explain">;
  /** Hide from `tools/list` the tools the policy denies whatever the call (needs `policy`). Default true. */
  readonly hideDenied?: boolean;
  /** Between a prefix and a name. Default `"__"`. */
  readonly separator?: string;
  /** The name and version the gateway gives clients. Default `toolware-gateway` and the package version. */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /** How crashed stdio upstreams are restarted (each upstream's `restart` overrides it key by key). */
  readonly restart?: RestartOptions;
  /** Hears what the gateway does; a throw is ignored. */
  readonly onEvent?: (event: GatewayEvent) => void;
}

/** Options of `gateway.listen()`: Streamable HTTP at `http://host:port/mcp`. */
export interface ListenOptions {
  /** Default `127.0.0.1`. Another address must be given explicitly. */
  readonly host?: string;
  /** Default 8787; 0 picks a free port. */
  readonly port?: number;
  /** When set, every request needs `Authorization: Bearer <token>` (compared in constant time). */
  readonly bearerToken?: string;
  /**
   * `Host` header values accepted (DNS-rebinding protection). Default: the listen address and port under its
   * own name, `localhost` and `127.0.0.1`/`[::1]`.
   */
  readonly allowedHosts?: readonly string[];
  /** `Origin` header values accepted when a request carries one. Default: none besides the allowed hosts over http. */
  readonly allowedOrigins?: readonly string[];
  /** Largest request body in bytes (a larger one gets 413). Default 4 MiB, the MCP SDK's own Streamable HTTP limit. */
  readonly maxBodyBytes?: number;
}

/** A running HTTP listener. */
export interface GatewayListener {
  /** `http://host:port/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting sessions and closes the open ones. */
  close(): Promise<void>;
}

/** One client session the gateway serves (stdio, or one Streamable HTTP session). */
export interface GatewaySession {
  readonly id: string;
  close(): Promise<void>;
}

/** The tool a name exposed by the gateway stands for. */
export interface ExposedTool {
  /** The name clients see. */
  readonly name: string;
  readonly upstream: string;
  /** The upstream's own name for it: the name the policy matches. */
  readonly upstreamName: string;
  /** Whether `tools/list` hides it (the policy denies it outright). */
  readonly hidden: boolean;
}

/** What the gateway reports to `onEvent`. */
export type GatewayEvent =
  | { readonly type: "upstream-connected"; readonly upstream: string }
  | { readonly type: "upstream-closed"; readonly upstream: string }
  | { readonly type: "upstream-error"; readonly upstream: string; readonly error: unknown }
  | { readonly type: "session-opened"; readonly session: string; readonly transport: "stdio" | "http" }
  | { readonly type: "session-closed"; readonly session: string }
  | {
      readonly type: "call";
      readonly session: string;
      readonly upstream: string;
      readonly tool: string;
      readonly isError: boolean;
      readonly durationMs: number;
    }
  | { readonly type: "refused"; readonly session: string; readonly tool: string; readonly reason: string }
  | { readonly type: "draining"; readonly inFlight: number }
  | {
      readonly type: "upstream-restarting";
      readonly session: string;
      readonly upstream: string;
      /** What happened: `exited`, `wrote a line on stdout that is not JSON-RPC …`, `could not be restarted: …`. */
      readonly reason: string;
      /** 1 for the first restart within the window. */
      readonly attempt: number;
      readonly delayMs: number;
    }
  | {
      readonly type: "upstream-restarted";
      readonly session: string;
      readonly upstream: string;
      readonly attempt: number;
    }
  | {
      readonly type: "upstream-down";
      readonly session: string;
      readonly upstream: string;
      readonly reason: string;
      /** The restarts made within the window. */
      readonly restarts: number;
    };

/** What a hook can learn about the gateway call it runs for (`gatewayCall(ctx)`). */
export interface GatewayCallInfo {
  readonly session: string;
  readonly upstream: string;
  /** The name the client called. */
  readonly exposedName: string;
  /** The client's `clientInfo` from its `initialize`, if it sent one. */
  readonly client: { readonly name: string; readonly version: string } | undefined;
}

/** The gateway `createGateway` returns. */
export interface Gateway {
  /** Connects every upstream and reads their capabilities and tools. Rejects when one cannot be reached. */
  start(): Promise<void>;
  /** The tools exposed now, with what each stands for. */
  tools(): Promise<readonly ExposedTool[]>;
  /** Serves one client over any MCP transport (stdio, in-memory); resolves once connected. */
  connect(transport: import("@modelcontextprotocol/sdk/shared/transport.js").Transport): Promise<GatewaySession>;
  /** Serves Streamable HTTP. */
  listen(options?: ListenOptions): Promise<GatewayListener>;
  /** Tells clients the tool list changed (after a policy reload). */
  toolsChanged(): void;
  /** Waits for the calls in flight (up to `timeoutMs`, default 10 s), then closes sessions and upstreams. */
  close(options?: { readonly timeoutMs?: number }): Promise<void>;
}

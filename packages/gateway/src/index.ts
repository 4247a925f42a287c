export { gatewayCall, gatewayElicitation } from "./context.js";
export type {
  ExposedTool,
  Gateway,
  GatewayCallInfo,
  GatewayEvent,
  GatewayListener,
  GatewayOptions,
  GatewaySession,
  HttpUpstreamConfig,
  ListenOptions,
  RestartOptions,
  StdioUpstreamConfig,
  UpstreamBase,
  UpstreamConfig,
} from "./contract.js";
export { createGateway } from "./gateway.js";

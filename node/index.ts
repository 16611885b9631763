/** The server side on Node (`wireforge/serve/node`): the mock server and a fetch-handler listener. */
export { createMockServer, servedSpec, type MockServer, type MockServerOptions } from './mock-server.js';
export { listen, type FetchHandler, type ListenOptions, type Listening } from './listen.js';
export { startGateway, builtInSpecs, type GatewayServerOptions, type GatewayConfigServerOptions } from './gateway-server.js';
export { MockSetupError } from '../runtime/errors.js';
export { checkGatewayConfig, GatewayConfigError, type GatewayConfig, type ConfigProblem } from '../runtime/serve/gateway-config.js';

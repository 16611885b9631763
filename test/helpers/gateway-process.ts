/**
 * One gateway in a process of its own (`tsx gateway-process.ts '<options as JSON>'`): startGateway
 * with the options given, its URL printed on one line, stopped by SIGTERM. Two of these on one
 * Redis are two gateway instances sharing limits.
 */
import { startGateway } from '../../node/index.js';

const gw = await startGateway(JSON.parse(process.argv[2]!));
process.stdout.write(`listening ${gw.url}\n`);
process.once('SIGTERM', () => {
  void gw.close().then(() => process.exit(0));
});

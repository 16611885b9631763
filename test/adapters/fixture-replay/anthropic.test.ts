/** Fixture replay (test/helpers/fixture-replay.ts) for one group of fixture folders: anthropic-messages, with its Bedrock and Vertex deployments. */
import { FIXTURE_GROUPS, replayFixtures } from '../../helpers/fixture-replay.js';

replayFixtures(FIXTURE_GROUPS.anthropic!);

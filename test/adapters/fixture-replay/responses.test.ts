/** Fixture replay (test/helpers/fixture-replay.ts) for one group of fixture folders: openai-responses, deepseek, gemini (and Vertex's) and ollama. */
import { FIXTURE_GROUPS, replayFixtures } from '../../helpers/fixture-replay.js';

replayFixtures(FIXTURE_GROUPS.responses!);

/** Fixture replay (test/helpers/fixture-replay.ts) for one group of fixture folders: openai-chat and the specs that extend it, groq, mistral, openrouter and vllm. */
import { FIXTURE_GROUPS, replayFixtures } from '../../helpers/fixture-replay.js';

replayFixtures(FIXTURE_GROUPS.chat!);

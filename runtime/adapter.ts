/**
 * A generated module declares a profile (data) and a codec (compiled templates and readers);
 * `defineAdapter` joins them into the `ProviderAdapter` (contract/adapter.ts) that the client,
 * transport and stream code work through, checking that the codec supplies the units it needs.
 */
import { finishMapper } from './assemble/map-finish.js';
import { isPaths, usageMapper } from './assemble/map-usage.js';
import type { ErrorFields, ProviderAdapter } from './contract/adapter.js';
import type { Codec, CodecUses } from './contract/codec.js';
import type { Profile } from './contract/profile.js';
import { hasContinuityRules, isTemplated, RETRYABLE_BY_DEFAULT } from './profile-facts.js';
import { requestBuilder } from './request/build-request.js';
import { firstStringAt, isInteger, keys, values } from './wire/read-path.js';
import { missingUse, useOf, WireforgeError } from './errors.js';
import { KIT_VERSION, MIN_KIT } from './kit-version.js';

/**
 * `generated.kit`: the adapter-kit version the module was generated for (runtime/kit-version.ts);
 * a module this runtime cannot serve is refused here, with the versions and the command to run.
 */
export const defineAdapter = (profile: Profile, codec: Codec, generated?: { kit: number }): ProviderAdapter => {
  // Modules from before the kit was recorded say nothing: kit 1. Hand-written adapters pass { kit: KIT_VERSION }.
  const kit = generated?.kit ?? 1;
  const { id, finish } = profile;
  if (!isInteger(kit) || kit > KIT_VERSION || kit < MIN_KIT) {
    const newer = kit > KIT_VERSION;
    throw new WireforgeError(
      `adapter "${id}" was generated for adapter kit ${kit}, and this runtime serves kits ${MIN_KIT}–${KIT_VERSION}: ` +
        (newer ? 'install the runtime that matches your generator' : 'regenerate it (`wireforge gen`)'),
      { provider: id },
    );
  }
  const e = profile.errors;
  const retryable = e.retryable ?? RETRYABLE_BY_DEFAULT;
  const uses = codec.uses ?? {};
  const { stream, endpoint: ep } = profile;
  const { framing } = stream;
  const rules = hasContinuityRules(profile);
  // The units this profile needs: when it does, the codec must supply them.
  const needs: Partial<Record<keyof CodecUses, unknown>> = {
    ndjson: framing === 'ndjson',
    eventStream: framing === 'event-stream',
    sigv4Auth: ep.auth.sigv4,
    tokenAuth: ep.auth.from === 'token',
    endpointOptions: ep.options,
    urlTemplate: isTemplated(ep),
    usageSteps: !values(profile.usage).every(isPaths),
    continuity: rules,
    // Templates that can carry another provider's state (block ones, a call's signature) need turns from elsewhere cleaned.
    foreignTurns: !rules && (uses.blocks || profile.request.carries.callSignature),
  };
  for (const name of keys(needs) as Array<keyof CodecUses>) if (needs[name] && !uses[name]) missingUse(id, name);
  const retryDelay = e.retryDelay?.length ? useOf(codec, id, 'retryDelay') : undefined;
  return {
    id,
    name: profile.name,
    profile,
    codec,
    endpoint: ep,
    stream,
    rules: { provider: id, mapFinishReason: finishMapper(finish), mapUsage: usageMapper(profile.usage, uses.usageSteps), parts: profile.parts, continues: finish.continues, uses: codec.uses },
    buildRequest: requestBuilder(profile, codec),
    readResponse: codec.readResponse,
    readEvent: codec.readEvent,
    readError: (body) => {
      const fields: ErrorFields = { message: firstStringAt(body, e.message), type: firstStringAt(body, e.type), code: firstStringAt(body, e.code) };
      const delay = retryDelay?.(body, e.retryDelay!);
      if (delay !== undefined) fields.retryDelayMs = delay;
      return fields;
    },
    isRetryable: (status, fields) =>
      (retryable.codes.includes(status) || retryable.ranges.some(([lo, hi]) => status >= lo && status <= hi)) &&
      !e.noRetry?.some((x) => (x.type === undefined || x.type === fields.type) && (x.code === undefined || x.code === fields.code)),
    requestIdHeader: e.requestIdHeader,
  };
};

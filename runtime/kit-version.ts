/**
 * The adapter-kit contract: what generated code may expect of the runtime it imports (the
 * names in adapter-kit.ts, the Profile and Codec shapes, the TurnAssembler methods readers call).
 * Generated modules record the version they were generated for; `defineAdapter` refuses a module
 * this runtime cannot serve, naming both versions, instead of failing later in some reader.
 * Raise KIT_VERSION when generated code starts to rely on something new; raise MIN_KIT when the
 * runtime stops serving what older generated code relies on. CHANGELOG.md says what changed.
 */
export const KIT_VERSION = 5;
export const MIN_KIT = 4;

/**
 * The typed spec document (generator/load/spec-document.ts) and the schema say the same: every
 * key of each schema object is a property of its interface, and every property is in the schema.
 */
import { readFileSync } from 'node:fs';
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';

const schema = JSON.parse(readFileSync(new URL('../../specs/spec.schema.json', import.meta.url), 'utf8')) as {
  properties: Record<string, unknown>;
  definitions: Record<string, { properties?: Record<string, unknown> }>;
};
const project = new Project({ skipAddingFilesFromTsConfig: true, compilerOptions: { strict: true } });
const file = project.addSourceFileAtPath(new URL('../../generator/load/spec-document.ts', import.meta.url).pathname);

/** Property names of a declared type; for a union, of its object members. */
function propertiesOf(name: string): string[] {
  const decl = file.getInterface(name) ?? file.getTypeAlias(name);
  if (!decl) throw new Error(`no ${name} in spec-document.ts`);
  const type = decl.getType();
  const members = type.isUnion() ? type.getUnionTypes().filter((t) => t.isObject()) : [type];
  return [...new Set(members.flatMap((t) => t.getProperties().map((p) => p.getName())))].sort();
}

const pairs: Array<[string, Record<string, unknown> | undefined]> = [
  ['SpecDocument', schema.properties],
  ['EndpointDocument', schema.definitions.endpoint?.properties],
  ['RequestDocument', schema.definitions.request?.properties],
  ['MessagesDocument', schema.definitions.messages?.properties],
  ['ParamDocument', schema.definitions.param?.properties],
  ['RuleDocument', schema.definitions.rule?.properties],
  ['StreamDocument', schema.definitions.stream?.properties],
  ['FinishDocument', schema.definitions.finish?.properties],
  ['UsageDocument', schema.definitions.usage?.properties],
  ['ErrorsDocument', schema.definitions.errors?.properties],
  ['ContinuityDocument', schema.definitions.continuity?.properties],
  ['PartsDocument', schema.definitions.parts?.properties],
  ['ServeDocument', schema.definitions.serve?.properties],
  ['ServeAcceptDocument', (schema.definitions.serve?.properties?.accept as { properties?: Record<string, unknown> } | undefined)?.properties],
];

describe('the typed spec document matches the schema', () => {
  it.each(pairs)('%s', (name, props) => {
    expect(props, `the schema has no object for ${name}`).toBeDefined();
    expect(propertiesOf(name)).toEqual(Object.keys(props!).sort());
  });
});

describe('the serve steps', () => {
  it('the schema lists the steps the runtime writes, in its order', async () => {
    const { SERVE_STEPS } = await import('../../runtime/serve/serve-steps.js');
    const stream = (schema.definitions.serve?.properties?.stream as { properties?: Record<string, unknown> } | undefined)?.properties;
    expect(Object.keys(stream ?? {})).toEqual([...SERVE_STEPS]);
  });
});

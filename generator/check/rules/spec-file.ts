/** Rules over a spec file as written: it holds a mapping, and its id is its file's name. */
import type { FileRule } from './rule.js';

export const specIsMapping: FileRule = {
  name: 'spec-is-mapping',
  fatal: true,
  check: (_file, doc) =>
    typeof doc === 'object' && doc !== null && !Array.isArray(doc)
      ? []
      : [{ code: 'wrong-type', pointer: '', message: 'A spec is a YAML mapping (id, endpoint, request, …); this file holds none', hint: 'start from a spec in specs/, or `extends:` one' }],
};

export const idMatchesFile: FileRule = {
  name: 'id-matches-file',
  check: (file, doc) => {
    const id = (doc as { id?: unknown }).id;
    const base = file.replace(/^.*[\\/]/, '').replace(/\.ya?ml$/, '');
    if (typeof id !== 'string' || id === base) return [];
    return [{ code: 'bad-id', pointer: '/id', message: `id "${id}" does not match the file name "${base}"`, hint: `rename the file to ${id}.yaml or set id: ${base}` }];
  },
};

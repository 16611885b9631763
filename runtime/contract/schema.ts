/**
 * The schema types the unified model and the tools are written against: the Standard Schema
 * interface (written here from the Standard Schema spec, which is meant to be copied) and the
 * TypeScript type a JSON Schema written `as const` describes.
 */

export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

export type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> };

export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Standard JSON Schema: the schema as JSON Schema, for the wire. */
    readonly jsonSchema?: { readonly input: (options: { readonly target: string }) => Record<string, unknown> } | undefined;
  };
}

/** The arguments type a Standard Schema validates to. */
export type InferOutput<S> = S extends StandardSchemaV1<unknown, infer O> ? O : unknown;

/**
 * The TypeScript type a JSON Schema describes, for schemas written `as const`: objects with
 * properties and `required`, arrays, enums, const, and the primitive types. Anything else is
 * `unknown`, which is always safe.
 */
type Prettify<T> = { [K in keyof T]: T[K] } & {};

type FromProperties<P, R extends readonly string[]> = Prettify<
  { -readonly [K in keyof P as K extends R[number] ? K : never]: FromSchema<P[K]> } & {
    -readonly [K in keyof P as K extends R[number] ? never : K]?: FromSchema<P[K]>;
  }
>;

export type FromSchema<S> = S extends { const: infer C }
  ? C
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { type: 'object'; properties: infer P }
      ? FromProperties<P, S extends { required: infer R extends readonly string[] } ? R : []>
      : S extends { type: 'object' }
        ? Record<string, unknown>
        : S extends { type: 'array'; items: infer I }
          ? Array<FromSchema<I>>
          : S extends { type: 'array' }
            ? unknown[]
            : S extends { type: 'string' }
              ? string
              : S extends { type: 'number' | 'integer' }
                ? number
                : S extends { type: 'boolean' }
                  ? boolean
                  : S extends { type: 'null' }
                    ? null
                    : S extends { type: readonly (infer T)[] }
                      ? FromSchema<{ type: T }>
                      : unknown;

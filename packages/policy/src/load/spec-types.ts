/**
 * The vocabulary of the policy file's descriptor (`spec.ts`): one tree from which both the checker (`check.ts`) and
 * the published JSON Schema (`json-schema.ts`, written to `schema.json`) are made, so the two cannot disagree.
 */

/** A key of an object: its value's spec, what it means, and what the reference says of it. */
export interface Field {
  readonly spec: Spec;
  /** One or two sentences: the JSON Schema `description` and the reference's text. */
  readonly description: string;
  readonly required?: boolean;
  /** What applies when the key is left out, as the reference shows it (`deny`, `the file's mode`). */
  readonly default?: string;
  /** The key in the checked document when it differs (`timeout` is written, `timeoutMs` is kept). */
  readonly as?: string;
}

interface Base {
  /** Said of the value in messages: `a rule`, `a duration`. */
  readonly noun?: string;
}

export interface ObjectSpec extends Base {
  readonly kind: "object";
  readonly fields: Readonly<Record<string, Field>>;
  /** Keys people write for a field that is spelt or placed otherwise here: written key → what to write. */
  readonly aliases?: Readonly<Record<string, string>>;
  /** Extra JSON Schema keywords (if/then) for the rules `refine` enforces, so editors flag them too. */
  readonly schemaExtra?: Readonly<Record<string, unknown>>;
  /**
   * Checks across keys, once every key is checked: issues at a key of the object (or `[]`). `failed` holds the keys
   * whose values were refused (left out of `value`), so a check that needs one of them can stay silent.
   */
  readonly refine?: (value: Readonly<Record<string, unknown>>, failed: ReadonlySet<string>) => readonly RefineIssue[];
}

/** An issue a `refine` finds: at `key` of the object (its value's position), or the object itself. */
export interface RefineIssue {
  readonly key?: string | number;
  readonly message: string;
}

export interface StringSpec extends Base {
  readonly kind: "string";
  readonly enum?: readonly string[];
  readonly minLength?: number;
  readonly maxLength?: number;
  /** Anchored pattern; `patternText` is its JSON Schema form, `patternMessage` what a mismatch says. */
  readonly pattern?: RegExp;
  readonly patternText?: string;
  readonly patternMessage?: string;
}

export interface NumberSpec extends Base {
  readonly kind: "number";
  readonly integer?: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
}

export interface BooleanSpec extends Base {
  readonly kind: "boolean";
}

/** `false` (or another constant) as one alternative of a choice: `maxRepeats: false`. */
export interface ConstSpec extends Base {
  readonly kind: "const";
  readonly value: boolean;
}

/** Milliseconds, or a string `500ms`, `90s`, `5m`, `1h`, `1d`; checked into milliseconds. */
export interface DurationSpec extends Base {
  readonly kind: "duration";
  /** `0` is accepted (a pause of none); otherwise a duration is positive. */
  readonly allowZero?: boolean;
}

/** The longest duration: what `setTimeout` honours (about 24.8 days). */
export const MAX_DURATION_MS = 2_147_483_647;

export interface ArraySpec extends Base {
  readonly kind: "array";
  readonly items: Spec;
  readonly minItems?: number;
  readonly maxItems?: number;
  /** Checks across entries (unique rule names), once every entry is checked; refused entries are `undefined`. */
  readonly refine?: (items: readonly unknown[]) => readonly RefineIssue[];
}

/** An object whose keys are names the file chooses (tool names), each value of one spec. */
export interface RecordSpec extends Base {
  readonly kind: "record";
  readonly values: Spec;
  readonly keyNoun: string;
}

/** One of several specs, told apart by the kind of value written (a number, a string, a map…). */
export interface ChoiceSpec extends Base {
  readonly kind: "choice";
  readonly options: readonly Spec[];
}

export type Spec =
  | ObjectSpec
  | StringSpec
  | NumberSpec
  | BooleanSpec
  | ConstSpec
  | DurationSpec
  | ArraySpec
  | RecordSpec
  | ChoiceSpec;

/** The longest list the file may hold anywhere (rules included). */
export const MAX_ITEMS = 10_000;
/** The longest string the file may hold anywhere (inline Cedar policies included). */
export const MAX_STRING = 256 * 1024;

export const string = (extra: Omit<StringSpec, "kind"> = {}): StringSpec => ({
  kind: "string",
  minLength: 1,
  ...extra,
});
export const oneOf = (values: readonly string[]): StringSpec => ({ kind: "string", enum: values });
export const boolean: BooleanSpec = { kind: "boolean" };
export const duration: DurationSpec = { kind: "duration", noun: "a duration" };
export const durationOrZero: DurationSpec = { kind: "duration", noun: "a duration", allowZero: true };
export const integer = (minimum: number, maximum?: number): NumberSpec =>
  maximum === undefined
    ? { kind: "number", integer: true, minimum }
    : { kind: "number", integer: true, minimum, maximum };
export const number = (extra: Omit<NumberSpec, "kind"> = {}): NumberSpec => ({ kind: "number", ...extra });
export const list = (items: Spec, extra: Omit<ArraySpec, "kind" | "items"> = {}): ArraySpec => ({
  kind: "array",
  items,
  ...extra,
});
export const object = (fields: Record<string, Field>, extra: Omit<ObjectSpec, "kind" | "fields"> = {}): ObjectSpec => ({
  kind: "object",
  fields,
  ...extra,
});
/** Alternatives told apart by the kind of value; `noun` says them all in one phrase. */
export const choice = (options: readonly Spec[], noun: string): ChoiceSpec => ({ kind: "choice", options, noun });

/** `priority`, as every pack that has it takes it. */
export const priority: Field = {
  spec: number(),
  description: "The pack's chain position (the pack's own default when left out).",
  default: "the pack's",
};

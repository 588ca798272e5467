/** The error thrown when a schema is refused (by the validator, or by the form builder). */
import type { Issue, LocalizedMessage } from './types.js';

export class FormSchemaError extends Error {
  /** `schema-invalid`: refused everywhere; `form-refused`: only the form UI refuses it. */
  readonly code: 'schema-invalid' | 'form-refused';
  readonly localized: LocalizedMessage;
  /** Every lint issue of the schema (including warnings). */
  readonly issues: readonly Issue[];

  constructor(code: 'schema-invalid' | 'form-refused', localized: LocalizedMessage, issues: readonly Issue[]) {
    super(localized.en);
    this.name = 'FormSchemaError';
    this.code = code;
    this.localized = localized;
    this.issues = issues;
  }
}

/**
 * Every error code the project produces, with what it means (data: SARIF's rules read it). A code is the stable
 * part of an error: messages change, codes do not. Codes cross the bridge as plain strings
 * (./render.ts, ./host-call.ts carry what the other side sent); the receiving end checks them
 * with isErrorCode. Warnings have their own codes (WarningCode).
 * test/protocol/error-codes.test.ts keeps the list exact: every E_ literal in src/ and the grammar
 * is here, and every code here is produced somewhere.
 */
export const ERROR_CODE_MEANINGS = {
  // Parsing (grammar/template.peggy; src/compiler/parse.ts)
  E_SYNTAX: 'the text does not read as a tag, expression or value',
  E_UNCLOSED_COMMENT: '{* is never closed with *}',
  E_UNCLOSED_LITERAL: '{literal} is never closed with {/literal}',
  E_UNCLOSED_TAG: 'a `{` is never closed with `}`, or a block tag is never closed',
  E_IF_EMPTY: '{if} with no condition',
  E_IF_SYNTAX: 'the condition of an {if} does not read',
  E_IF_IS: 'an unknown `is ...` test in a condition',
  E_MODIFIER_ARG: 'a modifier argument is missing after `:`',
  E_DQ_VARIABLE: 'a variable in a double-quoted string that needs backticks',
  E_UNDEFINED_CONSTANT: 'a bare word where a value belongs (PHP 8: undefined constant)',
  E_NESTING_TOO_DEEP: 'an expression or a tag nests deeper than the compiler follows',
  E_DEFAULT_MODIFIERS: 'the defaultModifiers option does not read as modifiers (src/compiler/default-modifiers.ts)',

  // Structure: pairing open and close tags (src/compiler/structure.ts)
  E_MISMATCHED_TAG: '{/x} closes a different tag than the one open',
  E_UNEXPECTED_CLOSE: '{/x} with no {x} open',
  E_UNEXPECTED_TAG: 'a branch tag ({else}, {elseif}, {foreachelse}...) where it is not allowed',
  E_UNKNOWN_TAG: 'no tag, plugin or block of that name',

  // Checks while generating code (src/compiler/codegen)
  E_UNKNOWN_MODIFIER: 'no modifier of that name',
  E_MODIFIER_ARGS: 'a modifier given too few or too many arguments',
  E_MISSING_ATTR: 'a required attribute is missing',
  E_UNKNOWN_ATTR: 'an attribute the tag does not declare',
  E_BAD_ATTR: 'an attribute value the tag cannot take (its type, name or form)',
  E_IF_FUNCTION: 'a function call in a condition that is not allowed, or its argument count',
  E_OUTSIDE_LOOP: '{break}/{continue} outside {foreach} or {section}',
  E_SMARTY_VAR: '$smarty with no known name after it',
  E_MEMORY_CLASS: '{set_memory} with a memory class that is not 256M, 512M or 768M written literally',
  E_DYNAMIC_INCLUDE: '{include file=...} that does not name the template literally',
  E_INCLUDE_NOT_FOUND: 'the included template does not exist',
  E_FUNCTION_NOT_FOUND: 'the custom function does not exist',
  E_TEMPLATE_TOO_LARGE: 'a template or its compiled code past the size or compile-time limit',

  // Compiling on the engine's compile thread (src/compiler/thread.ts)
  E_COMPILE_BUSY: 'too many compiles already waiting',

  // Rendering in the isolate (src/runtime, src/value, src/php)
  E_RUNTIME: 'an error in the render with no code of its own',
  E_TYPE: 'PHP 8 would throw a TypeError here',
  E_DIVISION_BY_ZERO: 'PHP 8 would throw a DivisionByZeroError here',
  E_BAD_VARS: 'the variables do not read: JSON text that json_decode refuses, or a request in no known format',
  E_ASSIGN: 'an assignment to a name that cannot hold one (too deep, an empty key)',
  E_BAD_ATTRIBUTE: 'an attribute value a plugin refuses at run time (also what the bridge refuses)',
  E_REGEX_UNSUPPORTED: 'a PCRE feature the regex translation does not support',
  E_REGEX_TOO_LARGE: 'a regular expression past the size the translation accepts',
  E_NO_HOST: 'a privileged plugin in a sandbox started without a host',
  E_TEMPLATE_NOT_LOADED: 'the isolate has no compiled template under that key (the host defines it and retries)',

  // Limits of a render (src/sandbox/limits.ts)
  E_CPU_TIMEOUT: "the render's CPU time ran out",
  E_WALL_TIMEOUT: "the render's wall-clock time ran out",
  E_MEMORY_LIMIT: "the isolate's heap limit was reached",
  E_OUTPUT_LIMIT: 'the output grew past its limit',
  E_SIZE_LIMIT: 'a value (string, array, transfer) grew past its limit',
  E_RECURSION_LIMIT: 'includes, functions or the stack recursed past their limit',
  E_SANDBOX_CRASHED: 'the isolate or its worker died',
  E_SANDBOX_WIRE: 'a sandbox worker sent what the protocol does not allow: the worker is replaced',
  E_SANDBOX_SETUP: 'the process is not set up to host isolates safely (--no-node-snapshot)',
  E_BRIDGE_CLOSED: 'a host call arrived when no render was running',
  E_BRIDGE_QUOTA: 'more host calls in one render than allowed',
  E_CANCELLED: 'the render was cancelled (`smartcage batch cancel`): its host work stopped',
  E_SLICE_YIELD:
    'a host call of a render in the synchronous slice could not be answered at once: the render runs again on the async path (never reaches the embedder)',

  // The host bridge and its plugins (src/bridge, src/host-plugins)
  E_PLUGIN_DENIED: 'the plugin or host modifier is not one the host runs',
  E_IDENTITY_DENIED: 'an identity attribute written as a variable without a super user',
  E_PERMISSION_DENIED: "the render's identity may not do this",
  E_HOST_CAPABILITY: 'the plugin needs a host adapter (HostAdapters field) this host was not given',
  E_PHP_DISABLED: 'a {php}...{/php} block: the dialect runs no PHP code',
  E_NOT_IMPLEMENTED: 'a tag of the language not built yet, or a feature of a plugin this host does not support',
  E_BAD_COMBINATION: 'attributes that do not go together (a body on GET, json_body with body)',
  E_NOT_FOUND: 'the member, message template, endpoint, content or column named does not exist',
  E_HOST_FAILED: 'the host failed in a way the template is not told more about',
  E_HOST_UNAVAILABLE: "a backend the plugin needs (the batch queue's Redis) did not answer in time; nothing was done",
  E_HOST_BUSY: 'a bounded host resource (the browser pages, the OCR workers) and its queue are full',
  E_SLEEP_BUDGET: "{sleep} past the render's sleep budget",
  E_QUOTA: 'a per-render or per-tenant store is full (secrets, files)',
  E_BUDGET:
    'a row budget is spent: more sessions, tokens, queued batches, mails or files than one render, tenant or member may create (docs/limits.md, "Row budgets")',
  E_RATE_LIMIT: 'too many mails or recipients, per render or per tenant and period',
  E_MAIL_REJECTED: 'a mail the host refuses to send (headers, recipients)',
  E_SECRET_NOT_FOUND: 'no secret of that name for the tenant',
  E_SECRET_DENIED: 'a secret used where it may not go (host, header, byte range)',

  // Outgoing HTTP (src/host-adapters/egress)
  E_BAD_URL: 'a URL that is malformed or not http(s)',
  E_BAD_HEADER: 'a request header or method/body combination that is not allowed',
  E_SSRF_DENIED: 'the address is private, local or otherwise refused',
  E_HTTP_TIMEOUT: 'the request timed out',
  E_HTTP_LIMIT: 'the response is past a size or count limit',
  E_HTTP_FAILED: 'the request failed (connection, protocol, encoding)',

  // Tenant files (src/host-adapters/files)
  E_PATH_DENIED: 'a path outside what the tenant may reach (traversal, symbolic link, root)',
  E_FILE_NOT_FOUND: 'no such file or folder',
  E_FILE_FAILED: 'a file operation failed (a folder where a file was expected, I/O)',

  // The engine (src/engine.ts)
  E_ENGINE_CLOSED: 'the engine was closed: a render asked for after close(), or one still running when it was called',
  E_INTERNAL: "a bug, or the embedder's lookup threw: the cause is kept, the message says nothing of it",

  // The security harness (src/security)
  E_UNCAUGHT: 'its own record of an attack that made the engine throw something other than a TemplateError',
} as const;

/** A stable error code (ERROR_CODE_MEANINGS says what each means). */
export type ErrorCode = keyof typeof ERROR_CODE_MEANINGS;

export const ERROR_CODES = Object.keys(ERROR_CODE_MEANINGS) as readonly ErrorCode[];

/** Warning codes: a warning never stops a compile or a render. */
export const WARNING_CODE_MEANINGS = {
  W_IGNORED_TEXT: 'text after a value in an output tag, which Smarty 2 ignores',
  W_TEXT_CONDITION: 'a {if {$x} whose condition Smarty 2 reads as text, a string true unless compared (D322)',
  W_UNKNOWN_ARGUMENT: 'a literal modifier argument outside the values it acts on (escape:"htmll")',
  W_RUNTIME: 'raised while rendering, where PHP warns and goes on (a modifier given a wrong type gives null)',
  W_DIALECT:
    'a place where the template relies on a departure of the dialect from stock Smarty 2 (smartcage check --compat)',
} as const;

export type WarningCode = keyof typeof WARNING_CODE_MEANINGS;

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether a code that came from elsewhere (the other side of the bridge, a thrown object) is one of ours. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && KNOWN.has(code);
}

//! TypeScript: what a member's or a function's written form says of its contract, and what it
//! does not (an inferred return type, `async`, a name internal by convention, a named type
//! that is callable).

use super::contract::{api_after, assert_clears, assert_fails};

const STREAM: &str = "export class Stream {\n  async push(input: string) {\n    return this\n  }\n  async flush(input: string) {\n    return this\n  }\n}\n";

// A method without a written return type has an inferred one; writing it down
// (`async push(x)` → `push(x): Promise<Stream>`) is at most undecided, and `async` is no part
// of the contract once the return type is a promise.
#[test]
fn typescript_an_inferred_return_type_written_down_is_no_declaration_change() {
    let head = STREAM
        .replace(
            "async push(input: string) {",
            "push(input: string): Promise<Stream> {",
        )
        .replace(
            "async flush(input: string) {",
            "async flush(input: string): Promise<Stream> {",
        );
    let axis = api_after(&[("src/stream.ts", STREAM)], &[("src/stream.ts", &head)]);
    assert_clears(&axis);
    // Still a break: a required parameter added on the way.
    let broken = head.replace(
        "push(input: string): Promise",
        "push(input: string, flag: boolean): Promise",
    );
    let axis = api_after(&[("src/stream.ts", STREAM)], &[("src/stream.ts", &broken)]);
    assert_fails(&axis, &["`Stream.push` a required parameter added"]);
    // `async` dropped for a written return type that is no promise.
    let sync = STREAM.replace(
        "async push(input: string) {",
        "push(input: string): Stream {",
    );
    let axis = api_after(&[("src/stream.ts", STREAM)], &[("src/stream.ts", &sync)]);
    assert_fails(&axis, &["`Stream.push`"]);
}

const CONTEXT: &str = "export class Context {\n  _status: number = 200\n  _pretty = false\n  status: number = 200\n  _render(x: string): string {\n    return x\n  }\n}\n";

// A member named with a leading underscore is internal by convention: removing or changing it
// warns, never fails. The name is read at the base: a public member renamed with an underscore
// is removed.
#[test]
fn typescript_an_underscore_member_is_internal_by_convention() {
    let head = CONTEXT
        .replace("  _status: number", "  private _status: number")
        .replace("  _pretty = false\n", "")
        .replace("_render(x: string)", "_render(x: string, y: number)");
    let axis = api_after(&[("src/context.ts", CONTEXT)], &[("src/context.ts", &head)]);
    assert_clears(&axis);
    assert!(
        axis.detail.contains("leading underscore"),
        "{}",
        axis.detail
    );
    let hidden = CONTEXT.replace("  status: number = 200", "  _state: number = 200");
    let axis = api_after(
        &[("src/context.ts", CONTEXT)],
        &[("src/context.ts", &hidden)],
    );
    assert_fails(&axis, &["`Context.status` removed"]);
}

const CREATE: &str =
    "export const createObjects = ({ id }: { id: string }) => {\n  return [id]\n}\n";

// A function made a constant whose written type is a callable type of the project
// (`const f: Factory = …` over `interface Factory { (args: …): … }` or a function type alias)
// is called the same way: its call signature is compared with the old one. A type that is not
// callable stays a break; one not found is undecided.
#[test]
fn typescript_a_function_made_a_constant_of_a_callable_type_is_called_the_same_way() {
    let head = "interface Factory {\n  (args: { id: string }): readonly [string]\n}\n\nexport const createObjects: Factory = ({ id }) => {\n  return [id] as const\n}\n";
    let axis = api_after(&[("src/css.ts", CREATE)], &[("src/css.ts", head)]);
    assert_clears(&axis);
    // A generic function type alias declared in another file of the project.
    let alias = "export type Upgrade<T = unknown, U = any> = (\n  create: (c: T) => void,\n  options?: U\n) => void\n";
    let base = "export function upgrade(create: (c: string) => void) {}\n";
    let head = "import type { Upgrade } from './types'\n\nexport const upgrade: Upgrade<string> = (create) => {}\n";
    let axis = api_after(
        &[("src/ws.ts", base), ("src/types.ts", alias)],
        &[("src/ws.ts", head)],
    );
    assert_clears(&axis);
    // Overloads: one of them takes every old call.
    let overloaded = "type Factory = {\n  (args: { id: string }, strict: boolean): readonly [string]\n  (args: { id: string }): readonly [string]\n}\n\nexport const createObjects: Factory = ({ id }: { id: string }) => {\n  return [id] as const\n}\n";
    let axis = api_after(&[("src/css.ts", CREATE)], &[("src/css.ts", overloaded)]);
    assert_clears(&axis);
    assert!(
        axis.detail.contains("called the same way"),
        "{}",
        axis.detail
    );
    // Declared twice elsewhere, once permissively: which one is imported is not resolved.
    let loose = "export type Upgrade = (...args: any[]) => any\n";
    let strict = alias.replace("options?: U", "options: U");
    let axis = api_after(
        &[
            ("src/ws.ts", base),
            ("src/types.ts", &strict),
            ("src/loose.ts", loose),
        ],
        &[("src/ws.ts", head)],
    );
    assert_fails(&axis, &["`upgrade` a function is now a const"]);
    // Its call signature requires more.
    let stricter = "interface Factory {\n  (args: { id: string }, extra: number): readonly [string]\n}\n\nexport const createObjects: Factory = ({ id }) => {\n  return [id] as const\n}\n";
    let axis = api_after(&[("src/css.ts", CREATE)], &[("src/css.ts", stricter)]);
    assert_fails(&axis, &["`createObjects`"]);
    // Not callable.
    let data = "interface Factory {\n  id: string\n}\n\nexport const createObjects: Factory = { id: 'a' }\n";
    let axis = api_after(&[("src/css.ts", CREATE)], &[("src/css.ts", data)]);
    assert_fails(&axis, &["`createObjects` a function is now a const"]);
}

const SOCKET: &str =
    "export type Socket = {\n  send(data: string): void\n  url: string | null\n}\n";

// An object type made a class: values typed as it are read as before, and object literals
// still fit a class whose members are all public (TypeScript compares them by structure). A
// class with a private member (`#init`, `private`) is nominal: literals typed as the old type
// no longer compile, a break.
#[test]
fn typescript_an_object_type_made_a_class_breaks_only_literals_of_a_class_with_private_members() {
    let open = "export class Socket {\n  constructor(url: string | null) {\n    this.url = url\n  }\n  send(data: string): void {}\n  url: string | null\n}\n";
    let axis = api_after(&[("src/ws.ts", SOCKET)], &[("src/ws.ts", open)]);
    assert_clears(&axis);
    let nominal = open.replace(
        "export class Socket {\n",
        "export class Socket {\n  #raw: unknown\n",
    );
    let axis = api_after(&[("src/ws.ts", SOCKET)], &[("src/ws.ts", &nominal)]);
    assert_fails(&axis, &["`Socket` a type is now a class", "`#raw`"]);
}

//! Go: what another package can reach of a changed item decides what the change breaks. A
//! function type over a type of the package no other package can name is written and called
//! only by the package; a field moved into an embedded struct is still selected by its name.

use super::contract::{api_after, assert_clears, assert_fails};

const OPTIONS: &str = "package svc

type (
\tOption func(*options) error

\toptions struct {
\t\tname string
\t}
)

func WithName(name string) Option {
\treturn func(o *options) error {
\t\to.name = name
\t\treturn nil
\t}
}

func New(opts ...Option) error { return nil }
";

// A functional option over an unexported options struct: no other package can write a
// function of `Option` (it cannot spell `*options`) or call one with anything but `nil`, so its
// signature is the package's own business. Dropping its `error` result only breaks a call that
// passes `nil` and reads the result: reported, not gating.
#[test]
fn go_a_function_type_over_a_type_no_other_package_can_name_is_not_a_callers_contract() {
    let dropped = OPTIONS
        .replace("Option func(*options) error", "Option func(*options)")
        .replace("\t\treturn nil\n\t}\n}", "\t}\n}");
    let axis = api_after(&[("svc/svc.go", OPTIONS)], &[("svc/svc.go", &dropped)]);
    assert_clears(&axis);
    assert!(
        axis.detail.contains("cannot name `options`"),
        "{}",
        axis.detail
    );
    // Its parameter now an exported type: every old call (with `nil`) still compiles.
    let exported = OPTIONS
        .replace("func(*options)", "func(*Options)")
        .replace("func(o *options)", "func(o *Options)")
        .replace(
            "\toptions struct {\n\t\tname",
            "\tOptions struct {\n\t\tName",
        )
        .replace("o.name", "o.Name");
    let axis = api_after(&[("svc/svc.go", OPTIONS)], &[("svc/svc.go", &exported)]);
    assert_clears(&axis);
}

// What still breaks: a parameter type users can name (an exported type, or an exported alias
// of the unexported one), or an unexported type the API hands out (its values can be passed),
// decided at the base, so a change cannot make a type unnameable to excuse itself.
#[test]
fn go_a_function_type_over_a_type_users_can_name_or_obtain_still_breaks() {
    let dropped = |text: &str| text.replace("Option func(*options) error", "Option func(*options)");
    let aliased = format!("{OPTIONS}\ntype Settings = options\n");
    let axis = api_after(
        &[("svc/svc.go", &aliased)],
        &[("svc/svc.go", &dropped(&aliased))],
    );
    assert_fails(&axis, &["`Option`"]);
    let handed_out = format!("{OPTIONS}\nfunc Defaults() *options {{ return nil }}\n");
    let axis = api_after(
        &[("svc/svc.go", &handed_out)],
        &[("svc/svc.go", &dropped(&handed_out))],
    );
    assert_fails(&axis, &["`Option`"]);
    // Handed out by another file of the package, through an exported field.
    let axis = api_after(
        &[
            ("svc/svc.go", OPTIONS),
            (
                "svc/group.go",
                "package svc\n\ntype Group struct {\n\tOpts *options\n}\n",
            ),
        ],
        &[("svc/svc.go", &dropped(OPTIONS))],
    );
    assert_fails(&axis, &["`Option`"]);
    // Removed: code naming it breaks whatever it takes.
    let axis = api_after(
        &[("svc/svc.go", OPTIONS)],
        &[(
            "svc/svc.go",
            &OPTIONS.replace("\tOption func(*options) error\n", ""),
        )],
    );
    assert_fails(&axis, &["`Option` removed"]);
    // An exported parameter type made unexported in the same change.
    let open = OPTIONS
        .replace("func(*options)", "func(*Options)")
        .replace("\toptions struct", "\tOptions struct")
        .replace("func(o *options)", "func(o *Options)");
    let axis = api_after(&[("svc/svc.go", &open)], &[("svc/svc.go", OPTIONS)]);
    assert_fails(&axis, &["`Option`"]);
}

// An interface whose methods take a type no other package can name cannot be implemented
// outside its package: a method added to it breaks no implementation.
#[test]
fn go_an_interface_over_a_type_no_other_package_can_name_is_sealed() {
    // `Run` takes a `Step`: the interface is not only handed out.
    let base = "package svc\n\ntype Step interface {\n\tApply(*state) error\n}\n\ntype state struct{}\n\nfunc Run(s Step) {}\n";
    let head = "package svc\n\ntype Step interface {\n\tApply(*state) error\n\tName() string\n}\n\ntype state struct{}\n\nfunc Run(s Step) {}\n";
    let axis = api_after(&[("svc/svc.go", base)], &[("svc/svc.go", head)]);
    assert_clears(&axis);
    let open = base
        .replace("*state", "*State")
        .replace("type state", "type State");
    let axis = api_after(
        &[("svc/svc.go", &open)],
        &[(
            "svc/svc.go",
            &head
                .replace("*state", "*State")
                .replace("type state", "type State"),
        )],
    );
    assert_fails(&axis, &["`Step.Name`"]);
}

const INFO: &str = "package acct

type Info struct {
\tMemory  uint64
\tStreams int
\tDomain  string
}
";

const TIERED: &str = "package acct

type Info struct {
\tTier
\tDomain string
}
";

// Fields moved into an embedded struct are promoted: `info.Memory` still compiles, only a
// keyed literal (`Info{Memory: 1}`) does not, so the move is reported, not gating.
#[test]
fn go_a_field_promoted_from_an_embedded_struct_is_still_selected() {
    let tier = "package acct\n\ntype Tier struct {\n\tMemory  uint64\n\tStreams int\n}\n";
    let axis = api_after(
        &[("acct/acct.go", INFO)],
        &[("acct/acct.go", TIERED), ("acct/tier.go", tier)],
    );
    assert_clears(&axis);
    assert!(
        axis.detail.contains("promoted from the embedded `Tier`"),
        "{}",
        axis.detail
    );
    // Two levels down.
    let deeper = "package acct\n\ntype Tier struct {\n\tUsage\n}\n\ntype Usage struct {\n\tMemory  uint64\n\tStreams int\n}\n";
    let axis = api_after(
        &[("acct/acct.go", INFO)],
        &[("acct/acct.go", TIERED), ("acct/tier.go", deeper)],
    );
    assert_clears(&axis);
    // Through an embedded pointer a zero `Info` panics where it read zero: still removed.
    let pointer = deeper.replace("\tUsage\n}", "\t*Usage\n}");
    let axis = api_after(
        &[("acct/acct.go", INFO)],
        &[("acct/acct.go", TIERED), ("acct/tier.go", &pointer)],
    );
    assert_fails(&axis, &["`Info.Memory` removed"]);
}

// Promotion's own rules: at the shallowest depth a name is found twice the selector is
// ambiguous (gone); a promoted field of another type is a changed field; an embedded struct of
// another package is not read, so the field is not proven there.
#[test]
fn go_a_field_ambiguous_or_retyped_through_embedding_still_breaks() {
    let two = "package acct\n\ntype Tier struct {\n\tMemory  uint64\n\tStreams int\n}\n\ntype Usage struct {\n\tMemory uint64\n}\n";
    let axis = api_after(
        &[("acct/acct.go", INFO)],
        &[
            (
                "acct/acct.go",
                &TIERED.replace("\tTier\n", "\tTier\n\tUsage\n"),
            ),
            ("acct/tier.go", two),
        ],
    );
    assert_fails(&axis, &["`Info.Memory` removed"]);
    assert!(!axis.detail.contains("`Info.Streams`"), "{}", axis.detail);
    let retyped = "package acct\n\ntype Tier struct {\n\tMemory  int64\n\tStreams int\n}\n";
    let axis = api_after(
        &[("acct/acct.go", INFO)],
        &[("acct/acct.go", TIERED), ("acct/tier.go", retyped)],
    );
    assert_fails(&axis, &["`Info.Memory`"]);
    let foreign = TIERED.replace("\tTier\n", "\tother.Tier\n");
    let axis = api_after(&[("acct/acct.go", INFO)], &[("acct/acct.go", &foreign)]);
    assert_fails(&axis, &["`Info.Memory` removed"]);
}

// The same reach for a function or method: a parameter of a type other packages can neither
// name nor obtain takes only `nil` from them, so its type changed to another that takes `nil`
// keeps every call. Anything else still compares: a `nil` may mean "the defaults".
#[test]
fn go_a_parameter_other_packages_can_pass_only_nil_to_may_change_type() {
    let base = format!("{OPTIONS}\nfunc Apply(o *options, n int) error {{ return nil }}\n");
    let exported = base
        .replace("func Apply(o *options", "func Apply(o *Settings")
        .replace("func New(", "type Settings struct{}\n\nfunc New(");
    let axis = api_after(&[("svc/svc.go", &base)], &[("svc/svc.go", &exported)]);
    assert_clears(&axis);
    let more = base.replace("n int) error", "n int, m int) error");
    let axis = api_after(&[("svc/svc.go", &base)], &[("svc/svc.go", &more)]);
    assert_fails(&axis, &["`Apply`"]);
}

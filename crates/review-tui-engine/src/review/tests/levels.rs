use super::*;
use crate::review::level::{Level, Placement, Role};

#[test]
fn each_level_dispatches_its_roster() {
    assert_eq!(Level::Light.roster(), vec![Role::Engineer]);
    assert_eq!(
        Level::Balanced.roster(),
        vec![Role::Engineer, Role::Qa, Role::Architect]
    );
    assert_eq!(Level::Thorough.roster(), Role::ALL.to_vec());
    assert_eq!(Level::default(), Level::Balanced);
}

#[test]
fn specialities_are_briefs_on_existing_agents() {
    assert_eq!(Role::Security.agent(), Role::Architect);
    assert_eq!(Role::Performance.agent(), Role::Engineer);
    assert_eq!(Role::Qa.agent(), Role::Qa);
}

#[test]
fn thresholds_sort_nodes_into_main_or_below_without_dropping_any() {
    let nodes = [
        node("a", "engineer", Priority::P0, 0.95),
        node("b", "engineer", Priority::P1, 0.7),
        node("c", "engineer", Priority::P2, 0.9),
        node("d", "engineer", Priority::P3, 0.3),
    ];
    let main = |level: Level| -> Vec<&str> {
        nodes
            .iter()
            .filter(|n| level.placement(n) == Placement::Main)
            .map(|n| n.id.as_str())
            .collect()
    };
    assert_eq!(main(Level::Light), vec!["a"]);
    assert_eq!(main(Level::Balanced), vec!["a", "b", "c"]);
    assert_eq!(main(Level::Thorough), vec!["a", "b", "c", "d"]);
    for level in Level::ALL {
        let below = nodes
            .iter()
            .filter(|n| level.placement(n) == Placement::BelowThreshold)
            .count();
        assert_eq!(main(level).len() + below, nodes.len());
    }
}

#[test]
fn levels_and_roles_parse_from_their_names() {
    assert_eq!("THOROUGH".parse::<Level>(), Ok(Level::Thorough));
    assert!(
        "heavy"
            .parse::<Level>()
            .unwrap_err()
            .contains("light, balanced or thorough")
    );
    assert_eq!("qa".parse::<Role>(), Ok(Role::Qa));
}

use super::*;
use crate::game::OptionKind;
use crate::registry::variants;
use crate::zobrist::splitmix64;

#[test]
fn every_variant_parses_once_and_writes_back() {
    let all = Variant::all();
    assert_eq!(all.iter().map(|v| v.name()).collect::<Vec<_>>(), variants());
    for v in &all {
        assert_eq!(v.name().parse::<Variant>().unwrap(), *v);
        assert_eq!(v.to_string(), v.name());
        assert_eq!(Variant::from_name_ignore_case(&v.name().to_uppercase()), Some(*v));
        assert_eq!(AnyGame::startpos(*v).variant(), *v);
    }
    assert_eq!("chess".parse::<Variant>(), Err(GameError::UnknownVariant { name: "chess".into() }));
    assert!("TeamChess".parse::<Variant>().is_err(), "names are exact");
    let team: Variant = "teamchess".parse().unwrap();
    assert_eq!(team.game(), GameKind::TeamChess);
    assert_eq!(Variant::from_name("queenskings9-duel").map(Variant::game), Some(GameKind::QueensKings));
}

/// A turn built from the handle's own action lists: at each action, one
/// of the listed actions picked by `seed`, until one ends the turn (the
/// handle's answers only, no rule of any game).
fn some_turn(g: &AnyGame, seed: u64) -> Option<String> {
    let mut prefix: Vec<String> = Vec::new();
    for i in 0..8u64 {
        let c = g.actions_after(&prefix).ok()?;
        if c.actions.is_empty() {
            return None;
        }
        let a = &c.actions[(splitmix64(seed ^ i) % c.actions.len() as u64) as usize];
        // A turn that stops early is written without its closing `0000`.
        if !a.pass || prefix.is_empty() {
            prefix.push(a.token.clone());
        }
        if a.ends_turn {
            return Some(prefix.join(","));
        }
    }
    panic!("{}: no turn ends within 8 actions", g.variant());
}

/// Play, undo, truncate and refusals on a random game of every variant:
/// every position string seen on the way back is the one seen on the way
/// out, and a refused turn or list changes nothing.
#[test]
fn play_undo_and_refusals_in_every_variant() {
    for v in Variant::all() {
        let mut g = AnyGame::startpos(v);
        let mut seen = vec![g.position_string()];
        for k in 0..24u64 {
            let Some(t) = some_turn(&g, splitmix64(k + 7)) else { break };
            let canon = g.check_turn(&t).unwrap();
            assert_eq!(g.play(&t).unwrap(), canon, "{v}");
            seen.push(g.position_string());
            if g.outcome().is_some() {
                break;
            }
        }
        let n = g.turns().len();
        assert!(n >= 4, "{v}: only {n} turns");
        // A refused turn changes nothing.
        let before = g.position_string();
        assert!(g.play("zz99").is_err());
        assert!(g.play_all(&["zz99".to_string()]).is_err());
        assert_eq!((g.position_string(), g.turns().len()), (before, n), "{v}");
        // A new game given the same turns at once ends where this one did.
        let mut h = AnyGame::startpos(v);
        h.play_all(g.turns()).unwrap();
        assert_eq!(h.position_string(), g.position_string(), "{v}");
        // A list with a bad turn inside is refused whole, naming that turn.
        let mut bad = g.turns()[..2].to_vec();
        bad.push("zz99".into());
        let mut h = AnyGame::startpos(v);
        match h.play_all(&bad) {
            Err(GameError::Turn { turn: 3, token, .. }) => assert_eq!(token, "zz99"),
            other => panic!("{v}: {other:?}"),
        }
        assert_eq!(h.turns().len(), 0, "{v}");
        assert_eq!(h.position_string(), seen[0], "{v}");
        // Undo walks back through the same positions, turn by turn.
        let tokens = g.turns().to_vec();
        g.truncate(n - 1);
        assert_eq!(g.position_string(), seen[n - 1], "{v}");
        for k in (0..n - 1).rev() {
            assert_eq!(g.undo().as_deref(), Some(tokens[k].as_str()), "{v}");
            assert_eq!(g.position_string(), seen[k], "{v}");
        }
        assert_eq!(g.undo(), None);
        // And forward again to the same end.
        g.play_all(&tokens).unwrap();
        assert_eq!(g.position_string(), seen[n], "{v}");
    }
}

#[test]
fn a_game_over_refuses_turns_and_actions() {
    // Random games until one ends, in games whose random games end soon.
    for v in ["quattuor", "queenskings9-duel", "quadranj"] {
        let v: Variant = v.parse().unwrap();
        let mut ended = false;
        'games: for seed in 0..40u64 {
            let mut g = AnyGame::startpos(v);
            for k in 0..600u64 {
                if let Some(o) = g.outcome() {
                    assert_eq!(g.actions_after(&[]).unwrap_err(), GameError::GameOver);
                    assert_eq!(g.play("0000").unwrap_err(), GameError::Over(o));
                    assert_eq!(g.search_action_count(), 0);
                    let n = g.turns().len();
                    let mut h = AnyGame::startpos(v);
                    let mut more = g.turns().to_vec();
                    more.push("0000".into());
                    assert!(matches!(h.play_all(&more), Err(GameError::TurnAfterEnd { turn, .. }) if turn == n + 1));
                    ended = true;
                    break 'games;
                }
                let Some(t) = some_turn(&g, splitmix64(seed * 1000 + k)) else { continue 'games };
                g.play(&t).unwrap();
            }
        }
        assert!(ended, "{v}: no random game ended");
    }
}

#[test]
fn options_are_checked_and_written_canonically() {
    for v in Variant::all() {
        let g = AnyGame::startpos(v);
        let bad = [("NoSuchOption".to_string(), "1".to_string())];
        assert!(matches!(AnyGame::new(v, &bad, &Start::Startpos), Err(GameError::NoSuchOption { .. })), "{v}");
        for spec in g.option_specs() {
            let (value, shouted) = match spec.kind {
                OptionKind::Check(d) => ((!d).to_string(), (!d).to_string().to_uppercase()),
                OptionKind::Spin { max, .. } => (max.to_string(), max.to_string()),
                OptionKind::Combo(vals) => match vals.get(1) {
                    Some(x) => (x.to_string(), x.to_uppercase()),
                    None => continue,
                },
            };
            let pairs = [(spec.name.to_lowercase(), shouted)];
            assert_eq!(AnyGame::canonical_options(v, &pairs).unwrap(), vec![(spec.name.to_string(), value)], "{v}");
            let wrong = [(spec.name.to_string(), "not-a-value".to_string())];
            assert!(matches!(AnyGame::new(v, &wrong, &Start::Startpos), Err(GameError::Value(_))), "{v} {}", spec.name);
        }
    }
}

#[test]
fn starts_from_strings_and_setups_or_says_why_not() {
    for v in Variant::all() {
        let g = AnyGame::startpos(v);
        let s = g.position_string();
        assert_eq!(AnyGame::new(v, &[], &Start::Fen(s.clone())).unwrap().position_string(), s, "{v}");
        assert!(matches!(AnyGame::new(v, &[], &Start::Fen("x".into())), Err(GameError::InvalidPosition(_))), "{v}");
        assert!(g.check_seat(g.seats() - 1).is_ok());
        assert_eq!(
            g.check_seat(g.seats()),
            Err(GameError::NoSuchSeat { seat: g.seats() + 1, variant: v.name(), seats: g.seats() })
        );
        if g.has_setup() {
            let tokens: Vec<String> = (0..g.seats()).map(|s| g.propose_setup(s, 5 + s as u64).unwrap()).collect();
            let h = AnyGame::new(v, &[], &Start::Setup(tokens)).unwrap();
            assert!(h.outcome().is_none() && h.search_action_count() > 0, "{v}");
            let short = vec!["x".to_string()];
            assert!(matches!(AnyGame::new(v, &[], &Start::Setup(short)), Err(GameError::InvalidSetup(_))), "{v}");
        } else {
            assert!(g.propose_setup(0, 1).is_none());
            assert!(AnyGame::new(v, &[], &Start::Setup(vec!["a".into(), "b".into()])).is_err(), "{v}");
        }
    }
}

#[test]
fn lines_stop_at_their_first_bad_turn() {
    let v: Variant = "teamchess".parse().unwrap();
    let g = AnyGame::startpos(v);
    let first = some_turn(&g, 3).unwrap();
    let line = vec![first.clone(), "zz99".to_string(), first.clone()];
    let turns = g.line_cells(&line).unwrap();
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0].token, g.check_turn(&first).unwrap());
    assert_eq!(turns[0].seat, g.to_move());
    assert_eq!(turns[0].actions.len(), 1);
    assert_eq!(turns[0].actions[0].len(), 2, "from and to");
    assert!(matches!(g.line_cells(&["zz99".to_string()]), Err(GameError::BadTurn { .. })));
}

// Tetrarch GUI. The page knows no rule: it draws the board the engine
// describes (`board` JSON), asks the engine for the legal actions
// (/api/actions) and sends whole turns back (/api/play).
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';

let variants = [];
let state = null;         // /api/state
let acts = null;          // /api/actions for the current prefix
let prefix = [];          // actions of the turn being built
let sel = null;           // selected cell name
let rot = 0;              // board rotation in degrees
let lastKey = '';         // game/turns the prefix belongs to
let loading = false;
let placing = null;       // choosing a seat's set-up on the board (see startPlacing)
let clockAt = 0;          // performance.now() when `state` arrived (clocks count down from there)
let viewAt = null;        // browsing: the number of turns of the position shown (null: the game's last)
let browseWant = null;    // the position browsing asked for last (answers to older requests are dropped)
let browsed = null;       // /api/at for viewAt
let overlay = null;       // arrows on the board: { key, kind: 'hint' | 'line', turns: /api/cells turns }
let pinnedLine = null;    // the analysis line clicked (its arrows stay)
let orientedGame = null;  // the game the board was turned for (the person's side at the bottom)
let heardTurns = null;    // turns when the last move sound played
const hivis = () => $('hivisbox').checked;

function setState(s) {
  state = s;
  clockAt = performance.now();
}

async function api(path, params, post) {
  let url = path;
  const opts = { method: post ? 'POST' : 'GET' };
  if (post) {
    opts.headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
    opts.body = new URLSearchParams(params || {}).toString();
  } else if (params) {
    url += '?' + new URLSearchParams(params).toString();
  }
  const r = await fetch(url, opts);
  let j;
  try { j = await r.json(); } catch (e) { throw new Error(r.status + ' ' + r.statusText); }
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

// The status line above the board: `kind` 'error' (red) or 'placing' (the
// set-up being chosen).
function say(text, kind) {
  const m = $('message');
  m.textContent = text;
  m.className = kind === true ? 'error' : (kind || '');
}

function seatName(i) {
  return state && state.seat_names[i - 1] ? state.seat_names[i - 1] : 'p' + i;
}

// ---- new-game panel -----------------------------------------------------

function currentVariant() {
  return variants.find((v) => v.name === $('variant').value);
}

function buildSeats(players) {
  const v = currentVariant();
  if (!v) return;
  if (placing) { placing = null; $('choices').innerHTML = ''; if (state) render(); }
  const box = $('seats');
  box.innerHTML = '';
  const setups = $('setups');
  setups.innerHTML = '';
  v.seat_names.forEach((name, i) => {
    const row = document.createElement('div');
    row.className = 'seat';
    const p = (players && players[i]) || (i === 0 ? 'human' : 'engine:1000');
    const isEngine = p.startsWith('engine');
    const ms = isEngine ? (p.split(':')[1] || '1000') : '1000';
    // The engine's named levels, with their Elo on this variant's scale
    // where it is calibrated (docs/levels.md); 'engine' is full strength
    // with the time given.
    const levels = (v.levels || []).map((l) =>
      '<option value="level:' + l.level + '">' + l.name + (l.elo !== undefined ? ' (Elo ≈ ' + l.elo + ')' : ' (level ' + l.level + ')') + '</option>'
    ).join('');
    row.innerHTML =
      '<span class="name">' + name + '</span>' +
      '<select id="ptype' + i + '"><option value="human">human</option>' + levels +
      '<option value="engine">engine, full strength</option></select>' +
      '<span id="pmsbox' + i + '"><input id="pms' + i + '" type="number" min="10" step="100" value="' + ms + '" title="ms per turn">ms</span>';
    box.appendChild(row);
    const known = p === 'human' || isEngine || (v.levels || []).some((l) => 'level:' + l.level === p);
    $('ptype' + i).value = isEngine ? 'engine' : (known ? p : 'human');
    $('pmsbox' + i).hidden = !isEngine;
    const srow = document.createElement('div');
    srow.className = 'seat';
    srow.innerHTML = '<span class="name">' + name + '</span><input id="setup' + i + '" placeholder="engine chooses">' +
      '<button id="suggest' + i + '" title="the engine\'s proposal (go setup)">Suggest</button>' +
      '<button id="place' + i + '" title="place the pieces on the board">Place</button>';
    setups.appendChild(srow);
    $('suggest' + i).onclick = async () => {
      try {
        const j = await api('/api/setup', Object.assign({ variant: v.name, seat: i + 1 }, optionParams()));
        $('setup' + i).value = j.token;
      } catch (e) { say(e.message, true); }
    };
    $('place' + i).onclick = () => startPlacing(i, true, false);
    $('ptype' + i).onchange = () => { $('pmsbox' + i).hidden = $('ptype' + i).value !== 'engine'; placeButtons(); };
  });
  buildOptions(v);
  placeButtons();
  const kind = $('startkind');
  kind.querySelector('option[value=setup]').disabled = !v.setup;
  if (!v.setup && kind.value === 'setup') kind.value = 'startpos';
  startKindChanged();
}

// The variant's rule options (and the engine's Strategy in free-for-all
// games) as form fields.
function buildOptions(v) {
  const box = $('optionsbox');
  box.innerHTML = '';
  $('rulesbox').hidden = !(v.options && v.options.length);
  (v.options || []).forEach((o, k) => {
    const row = document.createElement('label');
    row.className = 'option';
    row.title = o.engine ? 'the engine\'s search (not a rule)' : 'rule option (setoption name ' + o.name + ')';
    const span = document.createElement('span');
    span.textContent = o.name;
    row.appendChild(span);
    let input;
    if (o.type === 'combo') {
      input = document.createElement('select');
      for (const x of o.vars) {
        const opt = document.createElement('option');
        opt.value = x;
        opt.textContent = x;
        input.appendChild(opt);
      }
      input.value = o.default;
    } else if (o.type === 'check') {
      input = document.createElement('input');
      input.type = 'checkbox';
      input.checked = o.default === 'true';
    } else {
      input = document.createElement('input');
      input.type = 'number';
      input.min = o.min;
      input.max = o.max;
      input.value = o.default;
    }
    input.id = 'opt' + k;
    row.appendChild(input);
    box.appendChild(row);
  });
}

// Shows the options of the current game (`state.options`) on the form.
function showOptions(values) {
  const v = currentVariant();
  (v && v.options || []).forEach((o, k) => {
    const input = $('opt' + k);
    if (!input || !(o.name in values)) return;
    if (o.type === 'check') input.checked = values[o.name] === 'true';
    else input.value = values[o.name];
  });
}

// `option.NAME=VALUE` for every option that differs from its default.
function optionParams() {
  const v = currentVariant();
  const out = {};
  (v && v.options || []).forEach((o, k) => {
    const input = $('opt' + k);
    if (!input) return;
    const val = o.type === 'check' ? String(input.checked) : String(input.value);
    if (val !== o.default) out['option.' + o.name] = val;
  });
  return out;
}

function clockParam() {
  const m = parseFloat($('clockmin').value || '0');
  const inc = parseFloat($('clockinc').value || '0');
  return m > 0 ? m + '+' + (inc > 0 ? inc : 0) : '';
}

// Place / pick on the board for human seats only.
function placeButtons() {
  const v = currentVariant();
  if (!v) return;
  v.seat_names.forEach((_, i) => {
    const b = $('place' + i);
    if (b) b.hidden = !v.board || $('ptype' + i).value !== 'human';
  });
}

function playersParam() {
  const v = currentVariant();
  return v.seat_names.map((_, i) => {
    const t = $('ptype' + i).value;
    return t === 'engine' ? 'engine:' + Math.max(10, parseInt($('pms' + i).value || '1000', 10)) : t;
  }).join(',');
}

function startKindChanged() {
  const k = $('startkind').value;
  $('setupbox').hidden = k !== 'setup';
  $('fenbox').hidden = k !== 'fen';
}

async function newGame() {
  const v = currentVariant();
  const params = Object.assign(
    { variant: v.name, players: playersParam(), start: $('startkind').value, moves: $('moves').value, clock: clockParam() },
    optionParams());
  if (params.start === 'fen') params.fen = $('fen').value;
  if (params.start === 'setup') v.seat_names.forEach((_, i) => { params['setup' + (i + 1)] = $('setup' + i).value; });
  try {
    setState(await api('/api/new', params, true));
    placing = null;
    viewAt = null;
    browsed = null;
    browseWant = null;
    overlay = null;
    pinnedLine = null;
    heardTurns = state.turns.length;
    orientOnce();
    resetTurn();
    say('New game: ' + v.name);
    render();
  } catch (e) { say(e.message, true); }
}

// ---- import ---------------------------------------------------------------

// The largest text the server imports (docs/gui.md, /api/import).
const IMPORT_MAX = 256 * 1024;

// A file chosen: its text goes into the box (read here, sent on Import).
function readImportFile() {
  const f = $('importfile').files[0];
  if (!f) return;
  if (f.size > IMPORT_MAX) { say('import: ' + f.name + ' has ' + f.size + ' bytes, more than ' + IMPORT_MAX + ': import one game', true); return; }
  const r = new FileReader();
  r.onload = () => { $('importtext').value = r.result; say('read ' + f.name + ': press Import'); };
  r.onerror = () => say('cannot read ' + f.name, true);
  r.readAsText(f);
}

// The server reads the text (the page knows no format): a new game on
// success, the error in the status line and nothing changed otherwise.
async function importGame() {
  const v = currentVariant();
  const params = Object.assign(
    { text: $('importtext').value, kind: $('importkind').value, variant: v.name, players: playersParam() },
    optionParams());
  try {
    setState(await api('/api/import', params, true));
    placing = null;
    rot = 0;
    resetTurn();
    lastKey = key();
    // The form shows the imported game's variant, seats and options.
    if ($('variant').value !== state.variant) {
      $('variant').value = state.variant;
      buildSeats(state.players);
    }
    showOptions(state.options || {});
    say(state.message || 'imported');
    render();
    if (humanToMove()) loadActions();
  } catch (e) { say(e.message, true); }
}

// ---- building a turn ------------------------------------------------------

function resetTurn() {
  prefix = [];
  acts = null;
  sel = null;
  $('choices').innerHTML = '';
}

function humanToMove() {
  return state && viewAt === null && !state.over && state.players[state.to_move - 1] === 'human' &&
    !(state.thinking && state.thinking.seat && !state.thinking.done);
}

async function loadActions() {
  if (loading) return;
  loading = true;
  try {
    acts = await api('/api/actions', { prefix: prefix.join(',') });
    if (acts.partial) {
      say('This position has too many legal actions to list: long chains are left out (type their token to play one).');
    }
  } catch (e) {
    say(e.message, true);
    resetTurn();
  }
  loading = false;
  render();
}

function target(a) {
  const f = a.cells[0];
  for (let i = a.cells.length - 1; i >= 0; i--) if (a.cells[i] !== f) return a.cells[i];
  return f;
}

async function choose(a) {
  $('choices').innerHTML = '';
  sel = null;
  if (a.pass) {
    await playTurn(prefix.length ? prefix.slice() : ['0000']);
  } else if (a.ends_turn) {
    await playTurn(prefix.concat([a.token]));
  } else {
    prefix.push(a.token);
    acts = null;
    await loadActions();
  }
}

async function playTurn(list) {
  const turn = list.join(',');
  try {
    setState(await api('/api/play', { turn }, true));
    say('');
  } catch (e) {
    say(e.message, true);
  }
  resetTurn();
  lastKey = key();
  render();
}

function showChoices(list) {
  const box = $('choices');
  box.innerHTML = '<span class="hint">Choose: </span>';
  list.forEach((a) => {
    const b = document.createElement('button');
    b.textContent = a.token;
    b.className = 'choice';
    b.onclick = () => choose(a);
    box.appendChild(b);
  });
}

// What the engine says about a cell a person clicked where no action
// starts: why its piece cannot act (`acts.idle`, the game's own reason),
// else the cues of the board drawn (a piece that acted, a pending capture).
function cueText(name) {
  const idle = acts && (acts.idle || []).find((x) => x.cell === name);
  if (idle) return name + ': ' + idle.reason;
  const board = shownBoard();
  const c = board && board.cells.find((x) => x.name === name);
  if (!c) return '';
  const texts = c.pieces.filter((p) => p.acted).map((p) => p.acted).slice(0, 1)
    .concat((c.marks || []).map((m) => m.text));
  return texts.length ? name + ': ' + texts.join('; ') : '';
}

function onCell(name) {
  if (!humanToMove() || !acts) {
    const cue = cueText(name);
    if (cue) say(cue, 'cue');
    return;
  }
  const withCells = acts.actions.filter((a) => a.cells.length > 0);
  if (sel) {
    const cands = withCells.filter((a) => a.cells[0] === sel && target(a) === name);
    if (cands.length === 1) { choose(cands[0]); return; }
    if (cands.length > 1) { showChoices(cands); return; }
  }
  $('choices').innerHTML = '';
  const starts = withCells.some((a) => a.cells[0] === name);
  sel = starts && sel !== name ? name : null;
  const cue = starts ? '' : cueText(name);
  if (cue) say(cue, 'cue');
  else if ($('message').classList.contains('cue')) say('');
  render();
}

// ---- choosing a set-up on the board ----------------------------------------
//
// The server says how (`/api/setup/place`): `place` (every piece on a cell
// of the seat's territory: Quattuor Reges) or `pick` (one of the seat's
// pieces: Quadranj's burglar), and which cells it accepts; the page builds
// the token, the server checks it and starts the game.

async function startPlacing(i, useToken, random) {
  const v = currentVariant();
  const params = Object.assign({ variant: v.name, seat: i + 1 }, optionParams());
  const tok = $('setup' + i).value.trim();
  const given = useToken && tok !== '';
  if (given) params.token = tok;
  try {
    const info = await api('/api/setup/place', params);
    if (info.mode === 'token') { say(v.name + ': this set-up is typed as a token', true); return; }
    placing = { seat: i, info, at: [], sel: 0, choice: null };
    if (info.mode === 'place') placing.at = info.pieces.map((p) => (given || random ? p.cell : null));
    else placing.choice = given || random ? info.token : null;
    nextUnplaced();
    $('startkind').value = 'setup';
    startKindChanged();
    $('choices').innerHTML = '';
    say('');
    render();
  } catch (e) { say(e.message, true); }
}

function nextUnplaced() {
  if (!placing || placing.info.mode !== 'place') return;
  const k = placing.at.indexOf(null);
  placing.sel = k >= 0 ? k : null;
}

function placingToken() {
  if (placing.info.mode === 'pick') return placing.choice;
  if (placing.at.some((c) => !c)) return null;
  return placing.info.pieces.map((p, k) => p.kind + '@' + placing.at[k]).join(',');
}

function onPlaceCell(name) {
  const info = placing.info;
  say('');
  if (info.mode === 'pick') {
    const cands = info.choices.filter((c) => c.cell === name);
    $('choices').innerHTML = '';
    if (cands.length === 1) placing.choice = cands[0].token;
    if (cands.length > 1) {
      const box = $('choices');
      box.innerHTML = '<span class="hint">Which one: </span>';
      cands.forEach((c) => {
        const b = document.createElement('button');
        b.className = 'choice';
        b.textContent = c.token + ' (' + (c.level === 1 ? 'bottom' : 'level ' + c.level) + ')';
        b.onclick = () => { placing.choice = c.token; box.innerHTML = ''; render(); };
        box.appendChild(b);
      });
    }
    render();
    return;
  }
  const k = placing.at.indexOf(name);
  if (k >= 0) {
    placing.at[k] = null;       // take the piece back
    placing.sel = k;
  } else if (placing.sel !== null && info.cells.includes(name)) {
    placing.at[placing.sel] = name;
    nextUnplaced();
  }
  render();
}

async function placeDone() {
  const v = currentVariant();
  const tok = placingToken();
  if (!tok) {
    say(placing.info.mode === 'pick' ? 'choose a piece first' : 'place every piece first', true);
    return;
  }
  try {
    // The server checks the token (from_setup) before it is used.
    await api('/api/setup/place', Object.assign({ variant: v.name, seat: placing.seat + 1, token: tok }, optionParams()));
  } catch (e) { say(e.message, true); return; }
  $('setup' + placing.seat).value = tok;
  const done = placing.seat;
  placing = null;
  $('choices').innerHTML = '';
  // The next human seat without a set-up yet, else the game starts.
  const next = v.seat_names.findIndex((_, i) => i !== done && $('ptype' + i).value === 'human' && !$('setup' + i).value.trim());
  if (next >= 0 && v.board) { startPlacing(next, false, false); return; }
  $('startkind').value = 'setup';
  startKindChanged();
  await newGame();
}

function renderPlaceBar() {
  const bar = $('placebar');
  bar.innerHTML = '';
  bar.hidden = !placing;
  if (!placing) return;
  const info = placing.info;
  const v = currentVariant();
  const name = v ? v.seat_names[placing.seat] : 'p' + (placing.seat + 1);
  const head = document.createElement('div');
  head.className = 'hint';
  head.textContent = info.mode === 'place'
    ? name + ': click a piece, then a marked cell (click a placed piece to take it back).'
    : name + ': click one of your pieces to choose it (' + (placing.choice || 'none chosen') + ').';
  bar.appendChild(head);
  if (info.mode === 'place') {
    const pal = document.createElement('div');
    pal.id = 'palette';
    info.pieces.forEach((p, k) => {
      if (placing.at[k]) return;
      const b = document.createElement('button');
      b.className = 'p' + (placing.sel === k ? ' sel' : '');
      b.textContent = p.glyph || p.kind;
      b.title = p.kind;
      b.dataset.piece = p.kind;
      const col = seatColour(info.board, p.seat);
      b.style.background = col;
      b.style.color = lum(col) > 0.6 ? '#111' : '#fff';
      b.onclick = () => { placing.sel = k; say(''); render(); };
      pal.appendChild(b);
    });
    if (!pal.childNodes.length) pal.textContent = 'every piece is placed';
    bar.appendChild(pal);
  }
  const buttons = [
    ['placerandom', 'Random', 'a random legal set-up (the engine\'s proposal)', () => startPlacing(placing.seat, false, true)],
    ['placeclear', 'Clear', 'start again', () => { placing.at = placing.at.map(() => null); placing.choice = null; nextUnplaced(); say(''); render(); }],
    ['placedone', 'Done', 'use this set-up', placeDone],
    ['placecancel', 'Cancel', 'back to the game', () => { placing = null; $('choices').innerHTML = ''; render(); }],
  ];
  const row = document.createElement('div');
  for (const [id, text, title, fn] of buttons) {
    const b = document.createElement('button');
    b.id = id;
    b.textContent = text;
    b.title = title;
    b.onclick = fn;
    row.appendChild(b);
  }
  bar.appendChild(row);
}

// What is happening while a set-up is chosen, for the header and the status
// line: "New quattuor game — Red places its pieces (3 of 16 placed)". The
// names come from the variant list and the server's answer, nothing else.
function placingStatus() {
  const info = placing.info;
  const v = currentVariant();
  const game = 'New ' + (info.variant || (v && v.name) || '') + ' game — ';
  const who = v && v.seat_names[placing.seat] ? v.seat_names[placing.seat] : 'p' + (placing.seat + 1);
  if (info.mode === 'place') {
    const done = placing.at.filter((c) => c).length;
    return game + who + ' places its pieces (' + done + ' of ' + info.pieces.length + ' placed)';
  }
  return game + who + ' chooses one of its pieces (' + (placing.choice ? placing.choice + ' chosen' : 'none chosen yet') + ')';
}

// While placing: the new game's seats on the right (who places, who has
// chosen, who leaves it to the engine, the clock), the previous game's
// panels dimmed under a label and its controls off; all back afterwards.
function renderPlacingPanels() {
  const on = !!placing;
  document.body.classList.toggle('placing', on);
  for (const id of ['undobtn', 'pausebtn', 'stopbtn', 'analysebtn', 'playersbtn', 'turninput', 'turnbtn']) $(id).disabled = on;
  $('setupinfo').hidden = !on;
  $('prevlabel').hidden = !on;
  $('controlsnote').hidden = !on;
  if (!on) return;
  const prev = state.variant + ' · game ' + state.game;
  const label = $('prevlabel');
  label.innerHTML = '';
  const head = document.createElement('b');
  head.textContent = 'Previous game: ' + prev;
  label.append(head, document.createElement('br'), 'shown dimmed until the new game starts; Cancel goes back to it.');
  $('controlsnote').textContent = 'Off while the new game is set up (they act on the previous game, ' + prev + '); Rotate turns the set-up board.';
  const v = currentVariant();
  const info = placing.info;
  $('setupinfohead').textContent = 'New game: ' + (info.variant || v.name);
  const box = $('setupinfobody');
  box.innerHTML = '';
  v.seat_names.forEach((name, i) => {
    const human = $('ptype' + i).value === 'human';
    const tok = $('setup' + i).value.trim();
    let what;
    if (i === placing.seat) what = info.mode === 'place' ? 'placing now' : 'choosing now';
    else if (tok) what = 'set-up chosen';
    else if (human && v.board) what = 'chooses next';
    else what = 'the engine chooses';
    const row = document.createElement('div');
    row.className = 'row' + (i === placing.seat ? ' now' : '');
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = info.board ? seatColour(info.board, i + 1) : '#999';
    const who = document.createElement('span');
    who.textContent = name + ' (' + (human ? 'human' : 'engine') + ')';
    const w = document.createElement('span');
    w.className = 'what';
    w.textContent = what;
    row.append(sw, who, w);
    box.appendChild(row);
  });
  const clock = clockParam();
  const c = document.createElement('div');
  c.className = 'hint';
  c.textContent = clock ? 'Clock: ' + clock.replace('+', ' min + ') + ' s' : 'No clock';
  box.appendChild(c);
}

// The board of the placement: the pieces where the person put them.
function placingView() {
  const info = placing.info;
  if (info.mode === 'pick') {
    const cells = new Set(info.choices.map((c) => c.cell));
    const chosen = info.choices.find((c) => c.token === placing.choice);
    return { board: info.board, from: cells, sel: chosen ? chosen.cell : null, targets: new Set(), last: new Set(), click: onPlaceCell };
  }
  const b = JSON.parse(JSON.stringify(info.board));
  const byName = new Map(b.cells.map((c) => [c.name, c]));
  placing.at.forEach((cell, k) => {
    const p = info.pieces[k];
    if (cell && byName.has(cell)) byName.get(cell).pieces = [{ glyph: p.glyph, kind: p.kind, seat: p.seat }];
  });
  const used = new Set(placing.at.filter((c) => c));
  const free = new Set(placing.sel === null ? [] : info.cells.filter((c) => !used.has(c)));
  return { board: b, from: new Set(), sel: null, targets: free, last: used, click: onPlaceCell };
}

// ---- clocks -----------------------------------------------------------------

function fmtClock(ms) {
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000);
  const s = (t % 60000) / 1000;
  return m + ':' + (s < 10 ? '0' : '') + s.toFixed(1);
}

function renderClocks() {
  const box = $('clocks');
  const c = state && state.clock;
  box.hidden = !c;
  if (!c) { box.innerHTML = ''; return; }
  const run = performance.now() - clockAt;
  const board = state.board;
  let html = '';
  c.left.forEach((ms, i) => {
    const seat = i + 1;
    const left = c.running === seat ? ms - run : ms;
    const cls = 'clock' + (c.running === seat ? ' running' : '') + (c.flagged === seat ? ' flagged' : '');
    const col = board ? seatColour(board, seat) : '#999';
    html += '<div class="' + cls + '" id="clock' + seat + '"><span class="swatch" style="background:' + col + '"></span> ' +
      seatName(seat) + ' <b>' + fmtClock(left) + '</b></div>';
  });
  box.innerHTML = html;
}

// ---- drawing --------------------------------------------------------------

function rotStep(board) {
  const square = board.cells.every((c) => c.shape === 'square');
  return square && board.seats.length === 4 && Math.abs(board.width - board.height) < 1e-6 ? 90 : 180;
}

function transform(board) {
  const r = ((rot % 360) + 360) % 360;
  const W = board.width, H = board.height;
  const swap = r === 90 || r === 270;
  const W2 = swap ? H : W, H2 = swap ? W : H;
  const rad = r * Math.PI / 180, c = Math.round(Math.cos(rad)), s = Math.round(Math.sin(rad));
  return {
    W: W2, H: H2,
    at(x, y) {
      const dx = x - W / 2, dy = y - H / 2;
      const x2 = dx * c - dy * s + W2 / 2, y2 = dx * s + dy * c + H2 / 2;
      return [x2, H2 - y2];
    },
  };
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function hexPoints(x, y, scale) {
  const r = 0.5773503 * (scale || 1);
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (60 * k - 90) * Math.PI / 180;
    pts.push((x + r * Math.cos(a)).toFixed(3) + ',' + (y + r * Math.sin(a)).toFixed(3));
  }
  return pts.join(' ');
}

function cellShape(c, x, y, cls, parent, scale) {
  if (c.shape === 'hex') return el('polygon', { points: hexPoints(x, y, scale), class: cls }, parent);
  const s = scale || 1;
  return el('rect', { x: x - s / 2, y: y - s / 2, width: s, height: s, class: cls }, parent);
}

function lum(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || '');
  if (!m) return 0.5;
  return (0.299 * parseInt(m[1], 16) + 0.587 * parseInt(m[2], 16) + 0.114 * parseInt(m[3], 16)) / 255;
}

// High-visibility colours: the Okabe–Ito palette (told apart with the
// common colour-vision deficiencies), by seat.
const HIVIS = ['#E69F00', '#0072B2', '#F0E442', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#000000'];

function seatColour(board, seat) {
  if (!seat || !board.seats[seat - 1]) return '#9e9e9e';
  if (hivis()) return board.seats.length === 2 ? ['#ffffff', '#000000'][seat - 1] : HIVIS[(seat - 1) % HIVIS.length];
  return board.seats[seat - 1].colour;
}

const KNOWN = ['light', 'dark', 'base', 'goal', 'home1', 'home2', 'neutral', 'centre', 'keep', 'edge'];

// What to highlight while playing: the last turn, the pieces that can act,
// the selected one and where it can go.
function playView(board) {
  const shown = viewAt !== null && browsed ? browsed : state;
  const last = new Set(prefix.length ? [] : (shown.last_cells || []));
  const from = new Set();
  const targets = new Set();
  if (acts && humanToMove()) {
    for (const a of acts.actions) {
      if (!a.cells.length) continue;
      if (!sel) from.add(a.cells[0]);
      if (sel && a.cells[0] === sel) targets.add(target(a));
    }
  }
  return { board, from, sel, targets, last, click: onCell, arrows: overlay && overlayShown() ? overlay : null };
}

function drawBoard(view) {
  const board = view.board;
  const svg = $('board');
  svg.innerHTML = '';
  const t = transform(board);
  const pad = 0.25;
  svg.setAttribute('viewBox', (-pad) + ' ' + (-pad) + ' ' + (t.W + 2 * pad) + ' ' + (t.H + 2 * pad));
  const lastCells = view.last, sources = view.from, targets = view.targets, sel = view.sel;
  const gCells = el('g', {}, svg), gHl = el('g', {}, svg), gPieces = el('g', {}, svg), gMarks = el('g', {}, svg);
  const at = new Map();
  for (const c of board.cells) {
    const [x, y] = t.at(c.x, c.y);
    at.set(c.name, [x, y]);
    const cls = 'cell c-' + (KNOWN.includes(c.class) ? c.class : 'other') +
      (c.playable === false ? ' unplayable' : ' clickable');
    const shape = cellShape(c, x, y, cls, gCells);
    shape.setAttribute('data-cell', c.name);
    // The engine's cues (docs/gui.md, "What the board shows"): a pending
    // capture rings the cell, a piece that acted this turn is pale; the
    // texts are the cell's tooltip.
    const marks = c.marks || [];
    const acted = c.pieces.find((p) => p.acted);
    const title = el('title', {}, shape);
    title.textContent = [c.name + (c.pieces.length ? ' ' + c.pieces.map((p) => p.kind).join('/') : '')]
      .concat(acted ? [acted.acted] : [], marks.map((m) => m.text)).join('\n');
    for (const m of marks) shape.classList.add('mark-' + m.kind);
    if (c.playable !== false) shape.addEventListener('click', () => view.click(c.name));
    if (lastCells.has(c.name)) cellShape(c, x, y, 'hl-last', gHl);
    if (sources.has(c.name)) cellShape(c, x, y, 'hl-from', gHl, 0.9);
    if (c.name === sel) cellShape(c, x, y, 'hl-sel', gHl, 0.92);
    if (targets.has(c.name)) el('circle', { cx: x, cy: y, r: 0.16, class: 'hl-target' }, gHl);
    const n = c.pieces.length;
    c.pieces.forEach((p, i) => {
      const off = n > 1 ? (i - (n - 1) / 2) * 0.08 : 0;
      const px = x - off, py = y + off;
      const fill = seatColour(board, p.seat);
      const g = el('g', { class: p.acted ? 'acted' : '', 'data-piece-cell': c.name }, gPieces);
      if (p.acted) el('title', {}, g).textContent = p.acted;
      el('circle', { cx: px, cy: py, r: 0.4, class: 'piece', fill }, g);
      if (p.glyph && i === n - 1) {
        const size = p.glyph.length <= 1 ? 0.6 : (p.glyph.length === 2 ? 0.36 : 0.3);
        const tx = el('text', { x: px, y: py + 0.02, class: 'glyph', 'font-size': size,
          fill: lum(fill) > 0.6 ? '#111' : '#fff' }, g);
        tx.textContent = p.glyph;
      }
    });
    if (n > 1) {
      const tx = el('text', { x: x + 0.22, y: y - 0.3, class: 'count' }, gPieces);
      tx.textContent = String(n);
    }
    for (const m of marks) {
      const ring = cellShape(c, x, y, 'ring-' + m.kind, gMarks, 0.86);
      ring.setAttribute('data-mark-cell', c.name);
      el('title', {}, ring).textContent = m.text;
    }
  }
  if (view.arrows) drawArrows(svg, at, view.arrows);
}

// A hint or an engine line on the board: an arrow per action from its
// first cell to its last (the cells the engine gave, /api/cells), the
// first turn solid, the next ones dashed; a dot for a one-cell action.
function drawArrows(svg, at, ov) {
  const g = el('g', {}, svg);
  ov.turns.forEach((turn, i) => {
    for (const cells of turn.actions) {
      const pts = cells.map((c) => at.get(c)).filter((p) => p);
      if (!pts.length) continue;
      const cls = 'arrow ' + ov.kind + (i ? ' later' : '');
      const [x1, y1] = pts[0], [x2, y2] = pts[pts.length - 1];
      if (pts.length === 1 || (x1 === x2 && y1 === y2)) {
        el('circle', { cx: x1, cy: y1, r: 0.22, class: cls }, g);
        continue;
      }
      el('polyline', { points: pts.map((p) => p[0].toFixed(3) + ',' + p[1].toFixed(3)).join(' '), class: cls }, g);
      const a = Math.atan2(y2 - y1, x2 - x1), h = 0.3;
      const p1 = [x2 - h * Math.cos(a - 0.45), y2 - h * Math.sin(a - 0.45)];
      const p2 = [x2 - h * Math.cos(a + 0.45), y2 - h * Math.sin(a + 0.45)];
      el('polyline', { points: [p1, [x2, y2], p2].map((p) => p[0].toFixed(3) + ',' + p[1].toFixed(3)).join(' '), class: cls }, g);
    }
  });
  g.setAttribute('data-arrows', ov.kind);
}

function renderReserves(board) {
  const box = $('reserves');
  box.innerHTML = '';
  for (const r of board.reserves || []) {
    const d = document.createElement('div');
    d.className = 'reserve';
    d.textContent = (r.seat ? seatName(r.seat) + ' ' : '') + r.label + ': ';
    for (const p of r.pieces) {
      const s = document.createElement('span');
      s.className = 'p';
      s.style.background = seatColour(board, p.seat);
      s.style.color = lum(seatColour(board, p.seat)) > 0.6 ? '#111' : '#fff';
      s.textContent = p.glyph || p.kind;
      s.title = p.kind;
      d.appendChild(s);
    }
    if (!r.pieces.length) d.append('—');
    box.appendChild(d);
  }
  $('notes').textContent = (board.notes || []).join(' · ');
}

function renderTurnBar() {
  const bar = $('turnbar');
  bar.innerHTML = '';
  if (!humanToMove()) return;
  if (prefix.length) {
    const s = document.createElement('span');
    s.textContent = 'This turn: ' + prefix.join(', ') + ' ';
    bar.appendChild(s);
  }
  const pass = acts && acts.actions.find((a) => a.pass);
  if (pass) {
    const b = document.createElement('button');
    b.id = 'endturn';
    b.textContent = prefix.length ? 'End turn' : 'Pass (0000)';
    b.onclick = () => choose(pass);
    bar.appendChild(b);
  }
  if (prefix.length) {
    const b = document.createElement('button');
    b.textContent = 'Cancel turn';
    b.onclick = () => { resetTurn(); loadActions(); };
    bar.appendChild(b);
  }
  // Without a board picture: every legal action as a button.
  if (acts && !acts.board && acts.actions.length <= 400) {
    const list = document.createElement('div');
    for (const a of acts.actions.filter((x) => !x.pass)) {
      const b = document.createElement('button');
      b.textContent = a.token;
      b.onclick = () => choose(a);
      list.appendChild(b);
    }
    bar.appendChild(list);
  }
}

// The board on the screen: during a turn of several actions, the board
// after its first actions (`acts.board`), else the game's.
// The board on the page: a browsed position's, the turn being built's
// (after its first actions), or the game's.
function shownBoard() {
  if (viewAt !== null && browsed) return browsed.board;
  return prefix.length && acts && acts.board ? acts.board : state && state.board;
}

function render() {
  if (!state) return;
  const browsing = viewAt !== null && browsed;
  const shown = browsing ? browsed : state;
  const board = shownBoard();
  $('headline').textContent = placing ? placingStatus()
    : state.variant + ' · game ' + state.game + ' · ' + state.start.split(' ')[0];
  if (placing && !$('message').classList.contains('error')) say(placingStatus(), 'placing');
  if (!placing && $('message').classList.contains('placing')) say('');
  renderPlacingPanels();
  renderPlaceBar();
  renderClocks();
  if (placing) {
    $('board').toggleAttribute('hidden', false);
    $('textboard').hidden = true;
    drawBoard(placingView());
  } else if (board) {
    $('board').toggleAttribute('hidden', false);
    $('textboard').hidden = true;
    drawBoard(playView(board));
    renderReserves(board);
  } else {
    $('board').toggleAttribute('hidden', true);
    $('textboard').hidden = false;
    $('textboard').textContent = shown.text;
  }
  const who = seatName(shown.to_move) + ' (' + state.players[shown.to_move - 1] + ')';
  $('tomove').textContent = browsing ? 'Viewing turn ' + viewAt + ': ' + seatName(shown.to_move) + ' to move'
    : state.over ? 'Game over' : 'To move: ' + who;
  $('result').textContent = state.result ? 'Result: ' + state.result : '';
  const th = state.thinking;
  if (th && th.info) {
    const i = th.info;
    const head = th.analysis ? 'Analysis' : th.hint ? 'Hint for ' + seatName(th.seat)
      : (th.done ? 'Last search' : seatName(th.seat) + ' thinking');
    $('thinkinfo').textContent = head + ' (' + seatName(th.view) + '\'s view): depth ' + i.depth + ', nodes ' + i.nodes +
      ', ' + i.time + ' ms';
  } else if (th) {
    $('thinkinfo').textContent = th.analysis ? 'Analysis starting…' : th.hint ? 'Looking for a hint…' : seatName(th.seat) + ' thinking…';
  } else {
    $('thinkinfo').textContent = '—';
  }
  if (state.hint && viewAt === null) {
    $('thinkinfo').textContent = 'Hint for ' + seatName(state.hint.seat) + ': ' + state.hint.turn + '\n' + $('thinkinfo').textContent;
  }
  renderLines(th);
  const rec = $('record');
  rec.innerHTML = '';
  state.turns.forEach((t, i) => {
    const li = document.createElement('li');
    li.textContent = t;
    li.className = (i === state.turns.length - 1 ? 'last' : '') + (viewAt === i + 1 ? ' viewed' : '');
    li.title = 'show the position after this turn';
    li.onclick = () => browseTo(i + 1);
    rec.appendChild(li);
  });
  if (viewAt === null) rec.scrollTop = rec.scrollHeight;
  $('dl-pgn4').hidden = !state.has_record;
  $('posstring').value = shown.position;
  renderBrowse();
  renderEval();
  renderGraph();
  $('pausebtn').textContent = state.paused ? 'Resume engines' : 'Pause engines';
  // Offered only where it applies: a hint on a person's turn, an analysis
  // while the game goes on.
  $('hintbtn').disabled = !humanToMove() || !!placing;
  $('analysebtn').disabled = !!state.over || !!placing;
  $('log').textContent = state.log.join('\n');
  renderTurnBar();
  if (placing) $('turnbar').innerHTML = '';
  if (state.message && !$('message').classList.contains('error') && !$('message').textContent) say(state.message);
}

// ---- hint, engine lines, evaluation bar, score graph -------------------------

// Whether the arrows of `overlay` belong on the board now: a hint while its
// position is shown, a line while the analysis is of the position shown.
function overlayShown() {
  if (!overlay || viewAt !== null || prefix.length) return false;
  return overlay.at === state.turns.length && overlay.game === state.game;
}

// The cells of a line of turns from the engine (/api/cells), as `overlay`.
async function showArrows(kind, tokens, keyStr) {
  const k = state.game + ':' + state.turns.length + ':' + kind + ':' + keyStr;
  if (overlay && overlay.key === k) return;
  try {
    const j = await api('/api/cells', { line: tokens.join(' ') });
    overlay = { key: k, kind, turns: j.turns, at: state.turns.length, game: state.game };
  } catch (e) { overlay = null; }
  render();
}

function checkHint() {
  if (state.hint && !pinnedLine && !(overlay && overlay.kind === 'line')) {
    showArrows('hint', [state.hint.turn], state.hint.turn);
  } else if (!state.hint && overlay && overlay.kind === 'hint') {
    overlay = null;
  }
}

// Signed score → [-1, 1] (a winning chance's scale: 250 cp ≈ 0.46).
function squash(cp) {
  return 2 / (1 + Math.exp(-cp / 250)) - 1;
}

function fmtScore(cp) {
  if (Math.abs(cp) >= 9000) return (cp > 0 ? '#' : '-#') + (10000 - Math.abs(cp));
  return (cp >= 0 ? '+' : '') + (cp / 100).toFixed(2);
}

// Two sides: scores as the side of seat 1 sees them; more sides
// (free for all): every seat for itself.
function twoSides() {
  return state && new Set(state.sides).size === 2;
}

function forSeat1(seat, cp) {
  return state.sides[seat - 1] === state.sides[0] ? cp : -cp;
}

function renderLines(th) {
  const ol = $('lines');
  ol.innerHTML = '';
  if (!th || !th.lines || th.done && !th.analysis) return;
  th.lines.forEach((l, k) => {
    const li = document.createElement('li');
    li.className = 'pvline' + (pinnedLine === k ? ' shown' : '');
    const sc = document.createElement('span');
    sc.className = 'sc';
    const cp = parseScore(l.score);
    sc.textContent = cp === null ? l.score : fmtScore(cp);
    sc.title = l.score + ' for ' + seatName(th.view) + ', depth ' + l.depth;
    li.append(sc, ' ' + l.pv.split(' ').slice(0, 10).join(' '));
    li.title = 'show its first turns on the board (click: keep them shown)';
    const toks = l.pv.split(' ').filter((x) => x).slice(0, 3);
    li.onmouseenter = () => { if (pinnedLine === null) showArrows('line', toks, 'l' + k + l.pv); };
    li.onmouseleave = () => { if (pinnedLine === null && overlay && overlay.kind === 'line') { overlay = null; checkHint(); render(); } };
    li.onclick = () => {
      pinnedLine = pinnedLine === k ? null : k;
      if (pinnedLine === null) { overlay = null; render(); } else { overlay = null; showArrows('line', toks, 'l' + k + l.pv); }
    };
    ol.appendChild(li);
  });
}

function parseScore(s) {
  const m = /^(cp|mate) (-?\d+)/.exec(s || '');
  if (!m) return null;
  const v = parseInt(m[2], 10);
  return m[1] === 'cp' ? v : (v > 0 ? 10000 - v : -10000 - v);
}

// The evaluation bar: the running or last search's best score, else the
// graph's last point; for two sides the share of seat 1's side (its colour
// at the bottom), in free-for-all the share of the seat whose view it is.
function renderEval() {
  const bar = $('evalbar');
  let seat = null, cp = null;
  const th = state.thinking;
  if (viewAt === null && th && th.info && parseScore(th.info.score) !== null && !(th.done && !th.analysis)) {
    seat = th.view; cp = parseScore(th.info.score);
  } else {
    const k = (viewAt === null ? state.turns.length : viewAt) - 1;
    const e = k >= 0 ? state.evals[k] : null;
    if (e) { seat = e.seat; cp = e.cp; }
  }
  bar.hidden = !state.board || seat === null;
  if (bar.hidden) return;
  const two = twoSides();
  const ref = two ? 1 : seat;
  const v = two ? forSeat1(seat, cp) : cp;
  $('evalfill').style.height = (50 + 50 * squash(v)).toFixed(1) + '%';
  $('evalfill').style.background = seatColour(state.board, ref);
  bar.style.background = two ? seatColour(state.board, state.sides.findIndex((x) => x !== state.sides[0]) + 1) : '#333';
  $('evaltext').textContent = fmtScore(v);
  bar.title = 'the engine\'s score for ' + (two ? seatName(1) + '\'s side' : seatName(seat)) + ': ' + fmtScore(v);
}

// The score graph: a point per turn (the position after it), seat 1's side
// up in two-sided games, each seat's own view in its colour otherwise; a
// click shows that position.
function renderGraph() {
  const svg = $('graph');
  const n = state.turns.length;
  // (An SVG element has no `hidden` property: the attribute itself.)
  svg.toggleAttribute('hidden', !n || !state.board);
  if (!n || !state.board) return;
  svg.innerHTML = '';
  const W = 600, H = 140, pad = 14;
  const x = (k) => pad + (n === 1 ? (W - 2 * pad) / 2 : (k - 1) * (W - 2 * pad) / (n - 1));
  const y = (v) => H / 2 - squash(v) * (H / 2 - pad);
  el('line', { x1: pad, x2: W - pad, y1: H / 2, y2: H / 2, class: 'axis' }, svg);
  const two = twoSides();
  const series = new Map();
  state.evals.forEach((e, i) => {
    if (!e) return;
    const who = two ? 1 : e.seat;
    if (!series.has(who)) series.set(who, []);
    series.get(who).push([x(i + 1), y(two ? forSeat1(e.seat, e.cp) : e.cp), i + 1, e]);
  });
  for (const [who, pts] of series) {
    el('polyline', { points: pts.map((p) => p[0].toFixed(1) + ',' + p[1].toFixed(1)).join(' '), class: 'gline',
      stroke: two ? '#555' : seatColour(state.board, who) }, svg);
  }
  for (const [who, pts] of series) {
    for (const [px, py, k, e] of pts) {
      const c = el('circle', { cx: px, cy: py, r: 4, class: 'gpt' + (viewAt === k ? ' now' : ''), 'data-turn': k,
        fill: seatColour(state.board, two ? e.seat : who) }, svg);
      const t = el('title', {}, c);
      t.textContent = 'after turn ' + k + ' (' + state.turns[k - 1] + '): ' + e.score + ' for ' + seatName(e.seat);
      c.addEventListener('click', () => browseTo(k));
    }
  }
  const lab = el('text', { x: pad, y: 11 }, svg);
  lab.textContent = two ? 'score for ' + seatName(1) + '\'s side' : 'each seat\'s score, its own view';
}

// ---- browsing -----------------------------------------------------------------

// Shows the position after `k` turns (the game does not change); the
// game's last position ends browsing.
async function browseTo(k) {
  if (!state) return;
  const n = state.turns.length;
  k = Math.max(0, Math.min(n, k));
  // Keys pressed faster than the answers come count from the last asked.
  browseWant = k;
  if (k === n) { viewAt = null; browsed = null; browseWant = null; render(); if (humanToMove() && !acts) loadActions(); return; }
  try {
    const j = await api('/api/at', { turn: k });
    if (browseWant !== k) return;
    browseWant = null;
    viewAt = k;
    browsed = j;
    resetTurn();
    render();
  } catch (e) { say(e.message, true); }
}

// The position browsing stands at (or is on its way to).
function browsePos() {
  return browseWant !== null ? browseWant : viewAt === null ? state.turns.length : viewAt;
}

function renderBrowse() {
  const n = state.turns.length;
  const k = viewAt === null ? n : viewAt;
  $('browsepos').textContent = 'turn ' + k + ' of ' + n;
  $('firstbtn').disabled = $('backbtn').disabled = k === 0;
  $('fwdbtn').disabled = $('lastbtn').disabled = viewAt === null;
  const note = $('browsenote');
  note.hidden = viewAt === null;
  if (viewAt === null) return;
  note.innerHTML = '';
  const b1 = document.createElement('button');
  b1.id = 'branchbtn';
  b1.textContent = 'Play from here';
  b1.title = 'the game goes on from this position: its later turns are dropped';
  b1.onclick = () => branchHere();
  const b2 = document.createElement('button');
  b2.textContent = 'Back to the game';
  b2.onclick = () => browseTo(n);
  note.append('Viewing the position after turn ' + viewAt + ' of ' + n + ' (the game is unchanged). ', b1, b2);
}

async function branchHere() {
  const k = viewAt;
  const dropped = state.turns.length - k;
  if (!window.confirm('Play from the position after turn ' + k + '? The game\'s ' + dropped + ' later turn(s) are dropped.')) return;
  viewAt = null;
  browsed = null;
  browseWant = null;
  await post('/api/branch', { turn: k });
}

// ---- comforts -------------------------------------------------------------------

// Turns the board so that `seat`'s pieces are at the bottom (computed
// from where the engine's board puts them).
function orientFor(seat) {
  const board = state.board;
  rot = 0;
  if (!board || !seat) return;
  const mine = board.cells.filter((c) => c.pieces.some((p) => p.seat === seat));
  if (!mine.length) return;
  const step = rotStep(board);
  let best = 0, bestY = -Infinity;
  for (let r = 0; r < 360; r += step) {
    rot = r;
    const t = transform(board);
    const yMean = mine.reduce((a, c) => a + t.at(c.x, c.y)[1], 0) / mine.length;
    if (yMean > bestY + 1e-6) { bestY = yMean; best = r; }
  }
  rot = best;
}

function orientOnce() {
  if (!state || state.game === orientedGame || !state.board) return;
  orientedGame = state.game;
  const first = state.players.indexOf('human');
  orientFor(first >= 0 ? first + 1 : 1);
}

let audio = null;
function moveSound() {
  const n = state.turns.length;
  const before = heardTurns;
  heardTurns = n;
  if (before === null || n <= before || !$('soundbox').checked) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 520;
    g.gain.setValueAtTime(0.08, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.09);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.1);
  } catch (e) { /* no sound on this browser */ }
}

async function showRules() {
  try {
    const r = await fetch('/api/rules?variant=' + encodeURIComponent(state.variant));
    const text = await r.text();
    if (!r.ok) throw new Error(text);
    const box = $('rulestext');
    box.innerHTML = '';
    for (const line of text.split('\n')) {
      const m = /^(#+) (.*)$/.exec(line);
      if (m) {
        const h = document.createElement('h3');
        h.textContent = m[2];
        box.appendChild(h);
      } else {
        box.append(line + '\n');
      }
    }
    $('rulesdlg').showModal();
  } catch (e) { say('rules: ' + e.message, true); }
}

function onKey(e) {
  const tag = (e.target && e.target.tagName) || '';
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(tag) || e.ctrlKey || e.metaKey || e.altKey || !state) return;
  const n = state.turns.length, k = browsePos();
  if (e.key === 'ArrowLeft') browseTo(k - 1);
  else if (e.key === 'ArrowRight') browseTo(k + 1);
  else if (e.key === 'Home') browseTo(0);
  else if (e.key === 'End') browseTo(n);
  else if (e.key === 'f') { $('flipbtn').click(); }
  else return;
  e.preventDefault();
}

function key() {
  return state ? state.game + ':' + state.turns.length + ':' + state.turns[state.turns.length - 1] : '';
}

async function poll() {
  try {
    const s = await api('/api/state');
    const changed = !state || s.version !== state.version || s.game !== state.game;
    if (state && (s.game !== state.game || (viewAt !== null && viewAt > s.turns.length))) { viewAt = null; browsed = null; browseWant = null; }
    setState(s);
    orientOnce();
    moveSound();
    checkHint();
    if (key() !== lastKey) {
      lastKey = key();
      resetTurn();
    }
    if (humanToMove() && !acts && !loading) {
      await loadActions();
      return;
    }
    if (changed) render();
  } catch (e) {
    say('server: ' + e.message, true);
  }
}

async function post(path, params) {
  try {
    setState(await api(path, params || {}, true));
    orientOnce();
    checkHint();
    resetTurn();
    lastKey = key();
    say(state.message || '');
    render();
    if (humanToMove()) loadActions();
  } catch (e) { say(e.message, true); }
}

async function init() {
  const v = await api('/api/variants');
  variants = v.variants;
  const sel = $('variant');
  for (const x of variants) {
    const o = document.createElement('option');
    o.value = x.name;
    o.textContent = x.name;
    sel.appendChild(o);
  }
  setState(await api('/api/state'));
  sel.value = state.variant;
  buildSeats(state.players);
  showOptions(state.options || {});
  if (state.clock) {
    $('clockmin').value = state.clock.base_ms / 60000;
    $('clockinc').value = state.clock.inc_ms / 1000;
  }
  sel.onchange = () => buildSeats(null);
  $('startkind').onchange = startKindChanged;
  $('newbtn').onclick = newGame;
  $('importbtn').onclick = importGame;
  $('importfile').onchange = readImportFile;
  $('undobtn').onclick = () => post('/api/undo');
  $('flipbtn').onclick = () => { if (state.board) { rot += rotStep(state.board); render(); } };
  $('pausebtn').onclick = () => post('/api/pause', { paused: state.paused ? 'false' : 'true' });
  $('stopbtn').onclick = () => post('/api/stop');
  $('analysebtn').onclick = () => { pinnedLine = null; overlay = null; post('/api/analyse', { multipv: $('multipv').value }); };
  $('hintbtn').onclick = () => { pinnedLine = null; post('/api/hint'); };
  $('rulesbtn').onclick = showRules;
  $('firstbtn').onclick = () => browseTo(0);
  $('backbtn').onclick = () => browseTo(browsePos() - 1);
  $('fwdbtn').onclick = () => browseTo(browsePos() + 1);
  $('lastbtn').onclick = () => browseTo(state.turns.length);
  document.addEventListener('keydown', onKey);
  $('hivisbox').checked = localStorage.getItem('tetrarch-hivis') === '1';
  $('hivisbox').onchange = () => { localStorage.setItem('tetrarch-hivis', $('hivisbox').checked ? '1' : '0'); render(); };
  $('soundbox').checked = localStorage.getItem('tetrarch-sound') !== '0';
  $('soundbox').onchange = () => localStorage.setItem('tetrarch-sound', $('soundbox').checked ? '1' : '0');
  $('playersbtn').onclick = () => {
    if ($('variant').value !== state.variant) { say('the seats are for variant ' + $('variant').value + ': start a new game', true); return; }
    post('/api/players', { players: playersParam() });
  };
  $('turnbtn').onclick = () => {
    const t = $('turninput').value.trim();
    if (t) playTurn([t]);
  };
  $('turninput').addEventListener('keydown', (e) => { if (e.key === 'Enter') $('turnbtn').click(); });
  lastKey = key();
  heardTurns = state.turns.length;
  orientOnce();
  render();
  setInterval(poll, 300);
  setInterval(renderClocks, 100);
}

init().catch((e) => say('cannot start: ' + e.message, true));

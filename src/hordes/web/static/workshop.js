// The variant workshop: a document in CodeMirror 6, checked as you type, drawn, played and balanced.
//
// CodeMirror's modules come by package name through the page's import map (web/editor.py). The
// linter runs 300 ms after the last keystroke: it posts the document to /api/workshop/preview, which
// answers with the pictures (start position, each piece's movement, the rules page) or with the
// problems, each marked on its line (gutter marker, underline, the list under the editor). The
// buttons save the document (POST /api/variants, the store) and open the game or analysis board
// under the name the store gives it; quick balance starts a self-play run and polls it.

import { EditorState } from '@codemirror/state';
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { StreamLanguage, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { yamlFrontmatter } from '@codemirror/lang-yaml';
import { linter, lintGutter } from '@codemirror/lint';
import { flash, postJSON } from './board.js';

const $ = (id) => document.getElementById(id);
const starts = JSON.parse($('ws-starts').textContent);
const POLL_MS = 500;
let checked = null; // the last preview of a valid document: {name, title, ...}
let ticket = 0; // the latest check; older answers are dropped

// The document's body is Markdown; it is shown as plain text (the YAML front matter is highlighted).
const plainText = StreamLanguage.define({
  token(stream) {
    stream.skipToEnd();
    return null;
  },
});

function setStatus(text, kind) {
  const el = $('ws-status');
  el.textContent = text;
  el.dataset.state = kind;
}

function showProblems(problems) {
  const list = $('ws-problems');
  list.innerHTML = '';
  for (const p of problems) {
    const li = document.createElement('li');
    const where = [p.line ? `line ${p.line}` : '', p.path].filter(Boolean).join(', ');
    li.textContent = where ? `${where}: ${p.message}` : p.message;
    list.append(li);
  }
}

function figure(svg, caption) {
  const fig = document.createElement('figure');
  fig.className = 'ws-piece';
  fig.innerHTML = svg; // hordes.svg's picture: every text of the document in it is escaped
  const cap = document.createElement('figcaption');
  cap.textContent = caption;
  fig.append(cap);
  return fig;
}

function showPreview(data) {
  checked = data;
  $('ws-title').textContent = `${data.title}: start position`;
  $('ws-board').innerHTML = data.board;
  $('ws-fen').textContent = data.fen;
  $('ws-pieces').replaceChildren(
    ...data.pieces.map((p) => figure(p.diagram, `${p.name} (${p.letter}): ${p.betza}`)),
  );
  $('ws-rules').innerHTML = data.rules; // the site generator's article: raw HTML of the document is escaped
  document.querySelector('.ws-preview').classList.remove('stale');
}

// The problems as CodeMirror diagnostics: the whole of each problem's line.
function diagnostics(doc, problems) {
  const out = [];
  for (const p of problems) {
    if (!p.line) continue;
    const line = doc.line(Math.min(Math.max(1, p.line), doc.lines));
    out.push({ from: line.from, to: line.to, severity: 'error', message: p.path ? `${p.path}: ${p.message}` : p.message });
  }
  return out;
}

async function check(view) {
  const doc = view.state.doc;
  const mine = ++ticket;
  setStatus('Checking…', 'checking');
  try {
    const data = await postJSON('/api/workshop/preview', { document: doc.toString() });
    if (mine !== ticket) return [];
    showPreview(data);
    showProblems([]);
    setStatus(`${data.title}: the document is valid.`, 'ok');
    return [];
  } catch (err) {
    if (mine !== ticket) return [];
    const problems = err.data && Array.isArray(err.data.problems) ? err.data.problems : null;
    if (!problems) { // not the document's fault (a limit on requests, the network): say so, mark nothing
      setStatus(`Not checked: ${err.message}`, 'unchecked');
      return [];
    }
    checked = null;
    document.querySelector('.ws-preview').classList.add('stale');
    showProblems(problems);
    setStatus(`${problems.length} problem${problems.length === 1 ? '' : 's'}: the pictures show the last valid version.`, 'invalid');
    return diagnostics(doc, problems);
  }
}

// The editor lives in a shadow root: CodeMirror's styles go in through a constructed stylesheet there
// (style-mod adopts one on a shadow root), where on the document itself they would be a <style>
// element, which the CSP (style-src 'self') refuses. Our own rules for it come in by a <link>.
const shadow = $('ws-code').attachShadow({ mode: 'open' });
const sheet = document.createElement('link');
sheet.rel = 'stylesheet';
sheet.href = '/static/workshop-editor.css';
shadow.append(sheet);

// Typing over a selection: Chromium's own editing would carry the deleted text's highlighting over as
// a style attribute on a new span, which the CSP refuses (and reports); CodeMirror redraws the line
// anyway, so the replacement is made here instead, before the browser touches the DOM.
const typeOverSelection = EditorView.domEventHandlers({
  beforeinput(event, editor) {
    if (event.inputType !== 'insertText' || !event.data || editor.state.selection.main.empty) return false;
    event.preventDefault();
    editor.dispatch(editor.state.update(editor.state.replaceSelection(event.data), { scrollIntoView: true, userEvent: 'input.type' }));
    return true;
  },
});

const view = new EditorView({
  root: shadow,
  parent: shadow,
  state: EditorState.create({
    doc: starts.find((s) => s.name === 'orda')?.document ?? starts[0].document,
    extensions: [
      lineNumbers(),
      lintGutter(),
      history(),
      drawSelection(),
      highlightActiveLine(),
      keymap.of([...defaultKeymap, ...historyKeymap]),
      yamlFrontmatter({ content: plainText }),
      syntaxHighlighting(defaultHighlightStyle),
      linter(check, { delay: 300 }),
      typeOverSelection,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': 'Variant document', spellcheck: 'false' }),
    ],
  }),
});

function setDocument(text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  view.focus();
}

$('ws-load').addEventListener('click', () => setDocument(starts[Number($('ws-start').value)].document));
$('ws-new').addEventListener('click', () => {
  const parent = $('ws-parent').value;
  setDocument(`---\ntitle: My ${parent} variant\nslug: my-${parent}\nparent: ${parent}\n---\n\nWhat changes, and why.\n`);
});

// ----- play: save the document, then open the game or the analysis board -------------------------

function busy(on) {
  for (const id of ['ws-play-engine', 'ws-play-friend', 'ws-analysis']) $(id).disabled = on;
}

async function save() {
  if (!checked) throw new Error('fix the problems first: the document is not valid');
  const saved = await postJSON('/api/variants', { document: view.state.doc.toString(), visibility: 'unlisted' });
  return saved.name;
}

async function play(opponent) {
  busy(true);
  try {
    const name = await save();
    const game = await postJSON('/api/games', { variant: name, opponent, color: 'white', level: 1 });
    window.location.assign(`/game/${game.id}`);
  } catch (err) {
    flash($('ws-flash'), err.message);
    busy(false);
  }
}

$('ws-play-engine').addEventListener('click', () => play('engine'));
$('ws-play-friend').addEventListener('click', () => play('friend'));
$('ws-analysis').addEventListener('click', async () => {
  busy(true);
  try {
    const name = await save();
    window.location.assign(`/analysis?variant=${encodeURIComponent(name)}`);
  } catch (err) {
    flash($('ws-flash'), err.message);
    busy(false);
  }
});

// ----- quick balance ---------------------------------------------------------------------------------

function percent(n, of) {
  return of ? ` (${Math.round((100 * n) / of)} %)` : '';
}

function showRun(run) {
  const box = $('ws-balance-result');
  box.hidden = false;
  box.dataset.status = run.status;
  box.innerHTML = '';
  const head = document.createElement('p');
  const state = run.status === 'running' ? 'playing' : run.status;
  head.textContent = `Quick balance of ${run.variant}: ${run.played} / ${run.games} games (${state})`;
  const bar = document.createElement('progress');
  bar.max = run.games;
  bar.value = run.played;
  box.append(head, bar);
  if (run.played && run.status !== 'running') {
    const table = document.createElement('table');
    table.className = 'ws-split';
    const rows = [
      ['White wins', `${run.white}${percent(run.white, run.played)}`],
      ['Black wins', `${run.black}${percent(run.black, run.played)}`],
      ['Draws', `${run.draws}${percent(run.draws, run.played)}`],
      ['Game length (plies)', `median ${run.lengths.median}, shortest ${run.lengths.min}, longest ${run.lengths.max}`],
      ['Endings', Object.entries(run.terminations).map(([k, n]) => `${k} ${n}`).join(', ')],
    ];
    for (const [name, value] of rows) {
      const tr = table.insertRow();
      const th = document.createElement('th');
      th.textContent = name;
      tr.append(th);
      tr.insertCell().textContent = value;
    }
    box.append(table);
  }
  if (run.message) {
    const note = document.createElement('p');
    note.className = 'muted';
    note.textContent = run.message;
    box.append(note);
  }
}

async function getJSON(url) {
  const res = await fetch(url);
  const data = await res.json();
  if (!res.ok) throw new Error(data.message || `HTTP ${res.status}`);
  return data;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

$('ws-balance').addEventListener('click', async () => {
  const button = $('ws-balance');
  button.disabled = true;
  try {
    const games = Number($('ws-balance-games').value);
    let run = await postJSON('/api/workshop/balance', { document: view.state.doc.toString(), games });
    showRun(run);
    while (run.status === 'running') {
      await pause(POLL_MS);
      run = await getJSON(`/api/workshop/balance/${encodeURIComponent(run.id)}`);
      showRun(run);
    }
  } catch (err) {
    flash($('ws-flash'), err.data && err.data.problems ? `Fix the document first: ${err.message}` : err.message);
  } finally {
    button.disabled = false;
  }
});

window.hordesWorkshop = { view, get checked() { return checked; } };

// The lobby's open challenges: the live list from /ws/lobby, the "Create a seek" form, Accept and
// Cancel. The server is the judge of everything (lobby.py, seeks.py); this page only shows its answers.

const $ = (id) => document.getElementById(id);
const list = $('seek-list');
const form = $('seek-form');
const seeks = new Map(); // id -> seek, in the order the server listed or added them
const mine = new Set(); // ids of this browser's own open seeks (to follow them while reconnecting)
let socket = null;
let retry = 500;
let leaving = false;

function showError(text) {
  const box = $('seek-error');
  box.textContent = text || '';
  box.hidden = !text;
}

async function call(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const res = await fetch(path, options);
  const data = await res.json().catch(() => ({ message: `${res.status} ${res.statusText}` }));
  if (!res.ok) throw new Error(data.message || `${res.status}`);
  return data;
}

function text(tag, className, content) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (content !== undefined) el.textContent = content;
  return el;
}

const SIDES = { white: 'plays White', black: 'plays Black', random: 'random side' };

function row(seek) {
  const li = text('li', seek.mine ? 'seek mine' : 'seek');
  li.dataset.id = seek.id;
  const who = text('span', 'who');
  const name = seek.creator.name;
  if (name) {
    const link = text('a', 'name', name);
    link.href = `/@/${encodeURIComponent(name)}`;
    who.append(link);
  } else {
    who.append(text('span', 'name', seek.mine ? 'You' : 'Anonymous'));
  }
  if (seek.creator.rating_text) who.append(text('span', 'rating', seek.creator.rating_text));
  const what = text('span', 'what');
  what.append(text('span', 'variant', seek.variant.title), ' · ');
  what.append(text('span', 'tc', seek.clock ? seek.clock.label : 'Untimed'), ' · ');
  what.append(`${seek.rated ? 'Rated' : 'Casual'} · ${SIDES[seek.color] || seek.color}`);
  const button = text('button', 'small', seek.mine ? 'Cancel' : 'Accept');
  button.type = 'button';
  button.dataset.action = seek.mine ? 'cancel' : 'accept';
  if (!seek.mine) button.classList.add('go');
  li.append(who, what, button);
  return li;
}

function render() {
  list.replaceChildren();
  if (seeks.size === 0) {
    const empty = text('li', 'seek-empty muted', 'No open challenges: create one below.');
    empty.id = 'seek-empty';
    list.append(empty);
    return;
  }
  for (const seek of seeks.values()) list.append(row(seek));
}

// The creator of an accepted seek asks for its game: the answer sets this browser's seat cookie.
async function follow(id) {
  try {
    const data = await call('GET', `/api/seeks/${encodeURIComponent(id)}`);
    mine.delete(id);
    if (data.state === 'accepted' && data.game_id && data.token) {
      leaving = true;
      location.assign(`/game/${data.game_id}`);
    }
  } catch (e) {
    showError(e.message);
  }
}

function receive(msg) {
  if (msg.type === 'seeks') {
    seeks.clear();
    for (const seek of msg.seeks) seeks.set(seek.id, seek);
    // One of ours accepted while the socket was down: its game is waiting.
    for (const id of [...mine]) if (!seeks.has(id)) follow(id);
    for (const seek of msg.seeks) if (seek.mine) mine.add(seek.id);
  } else if (msg.type === 'seek_added') {
    seeks.set(msg.seek.id, msg.seek);
    if (msg.seek.mine) mine.add(msg.seek.id);
  } else if (msg.type === 'seek_removed') {
    seeks.delete(msg.id);
    if (msg.mine && msg.reason === 'accepted') follow(msg.id);
    else mine.delete(msg.id);
  } else if (msg.type === 'error') {
    showError(msg.message);
  }
  render();
}

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  socket = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  socket.addEventListener('open', () => {
    retry = 500;
    document.body.classList.remove('offline');
  });
  socket.addEventListener('message', (e) => receive(JSON.parse(e.data)));
  socket.addEventListener('close', () => {
    if (leaving) return;
    document.body.classList.add('offline');
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  });
}

// What the form says, as the API takes it (the same choices as the new-game form's).
function spec() {
  const fields = new FormData(form);
  const choice = fields.get('seek_clock');
  let clock = choice;
  if (choice === 'untimed') clock = null;
  else if (choice.startsWith('days:')) clock = { days: Number(choice.slice(5)) };
  else if (choice === 'custom') {
    clock = {
      base: Number(fields.get('seek_clock_minutes')) * 60,
      increment: Number(fields.get('seek_clock_increment')),
    };
  }
  return {
    variant: fields.get('seek_variant'),
    clock,
    color: fields.get('seek_color'),
    rated: fields.get('seek_rated') === '1',
  };
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  showError('');
  const button = $('seek-submit');
  button.disabled = true;
  try {
    const data = await call('POST', '/api/seeks', spec());
    mine.add(data.seek.id);
    if (!seeks.has(data.seek.id)) {
      seeks.set(data.seek.id, data.seek); // the socket's event may come after the answer
      render();
    }
  } catch (err) {
    showError(err.message);
  } finally {
    button.disabled = false;
  }
});

list.addEventListener('click', async (e) => {
  const button = e.target.closest('button[data-action]');
  if (!button) return;
  const id = button.closest('li').dataset.id;
  showError('');
  button.disabled = true;
  try {
    if (button.dataset.action === 'accept') {
      const data = await call('POST', `/api/seeks/${encodeURIComponent(id)}/accept`);
      leaving = true;
      location.assign(`/game/${data.id}`); // the seat is in this browser's cookie now
    } else {
      await call('DELETE', `/api/seeks/${encodeURIComponent(id)}`);
      seeks.delete(id);
      mine.delete(id);
      render();
    }
  } catch (err) {
    button.disabled = false;
    showError(err.message);
  }
});

window.hordesLobby = { seeks, mine };
connect();

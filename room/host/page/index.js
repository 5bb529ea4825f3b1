// The host's index: the room list kept fresh by the host (an event
// stream, list.dataset.src, whose "rooms" events each carry the whole
// list when it changes: nothing is fetched again on a timer), times shown
// in the visitor's own zone, and the form that starts a debate through
// the API (POST /api/sessions) and opens its page. Room names and topics
// are text (textContent), never markup.
'use strict';
(function () {
  const list = document.getElementById('rooms');
  const empty = document.getElementById('rooms-empty');

  function localTime(iso) {
    const d = new Date(iso);
    if (isNaN(d)) return 'time unknown';
    return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  }
  function localize(root) {
    for (const t of root.querySelectorAll('time[datetime]')) {
      if (t.getAttribute('datetime')) t.textContent = localTime(t.getAttribute('datetime'));
    }
  }
  function row(r) {
    const li = document.createElement('li');
    li.dataset.name = r.name;
    const a = document.createElement('a');
    a.href = r.href;
    const topic = document.createElement('bdi');
    topic.className = 'topic';
    topic.textContent = r.topic;
    a.append(topic);
    const info = document.createElement('span');
    info.className = 'info';
    const time = document.createElement('time');
    time.setAttribute('datetime', r.last || '');
    time.textContent = r.last ? localTime(r.last) : r.when;
    const name = document.createElement('bdi');
    name.className = 'name';
    name.textContent = r.name;
    info.append(time, ' · ' + r.mode + ' · ' + r.state + ' · ', name);
    li.append(a, info);
    return li;
  }

  // The stream: the browser reconnects by itself when the connection
  // drops (the host sends the list again, or nothing if it has not
  // changed: Last-Event-ID names the list held); a refusal (401, 429)
  // closes it, and it is opened again later, slower each time. A hidden
  // tab holds no stream (the host counts them): it opens one when shown.
  let es = null;
  let timer = 0;
  let backoff = 0;
  function draw(ev) {
    let got;
    try { got = JSON.parse(ev.data); } catch (_) { return; }
    const rooms = got.rooms || [];
    list.replaceChildren(...rooms.map(row));
    empty.hidden = rooms.length > 0;
    list.dataset.list = ev.lastEventId;
    backoff = 0;
  }
  function connect() {
    if (es || document.hidden) return;
    clearTimeout(timer);
    es = new EventSource(list.dataset.src);
    es.addEventListener('rooms', draw);
    es.addEventListener('error', () => {
      if (!es || es.readyState !== EventSource.CLOSED) return;
      es = null;
      timer = setTimeout(connect, Math.min(60000, 2000 * 2 ** backoff++));
    });
  }
  function disconnect() {
    clearTimeout(timer);
    if (es) { es.close(); es = null; }
  }
  if (list) {
    localize(list);
    connect();
    document.addEventListener('visibilitychange', () => (document.hidden ? disconnect() : connect()));
  }

  // ---- the start form ----
  const form = document.getElementById('start');
  if (!form) return;
  const problem = document.getElementById('start-error');
  const custom = document.getElementById('custom');
  const personas = document.getElementById('personas');
  const max = Number(personas.dataset.max) || 12;
  const submit = document.getElementById('start-debate');

  function fail(msg) {
    problem.textContent = msg;
    problem.hidden = false;
    submit.disabled = false;
    submit.textContent = 'Start Debate';
  }
  function count() {
    return form.querySelectorAll('input[name=persona]:checked').length + custom.children.length;
  }
  document.getElementById('add-persona').addEventListener('click', () => {
    if (count() >= max) { fail('A debate seats at most ' + max + ' personas; uncheck or remove one first.'); return; }
    const n = custom.children.length + 1;
    const box = document.createElement('div');
    box.className = 'custom-persona';
    const name = document.createElement('input');
    name.type = 'text'; name.className = 'pname'; name.placeholder = 'Name, e.g. Cost Optimizer'; name.maxLength = 60;
    name.setAttribute('aria-label', 'Name of persona ' + n);
    const desc = document.createElement('input');
    desc.type = 'text'; desc.className = 'pdesc'; desc.placeholder = 'Who they are and what they argue for';
    desc.setAttribute('aria-label', 'Description of persona ' + n);
    const rm = document.createElement('button');
    rm.type = 'button'; rm.textContent = 'Remove'; rm.className = 'remove';
    rm.addEventListener('click', () => box.remove());
    box.append(name, desc, rm);
    custom.append(box);
    name.focus();
  });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    problem.hidden = true;
    const topic = form.elements.topic.value.trim();
    if (!topic) { fail('Say the decision to debate, e.g. "Should we adopt GraphQL?"'); form.elements.topic.focus(); return; }
    const rounds = Number(form.elements.rounds.value);
    const body = { topic, rounds };
    if (form.elements.stances.checked) body.stances = true;
    if (form.elements.rank.checked) body.rank = true;
    const boxes = [...form.querySelectorAll('input[name=persona]')];
    const agents = boxes.filter((b) => b.checked).map((b) => ({ name: b.dataset.name, persona: b.dataset.persona }));
    for (const box of custom.children) {
      const name = box.querySelector('.pname').value.trim();
      const persona = box.querySelector('.pdesc').value.trim();
      if (!name && !persona) continue;
      if (!name || !persona) { fail('Each persona you add needs a name and a description.'); return; }
      agents.push({ name, persona });
    }
    if (agents.length === 0) { fail('Check at least one persona, or add one.'); return; }
    if (agents.length > max) { fail('A debate seats at most ' + max + ' personas; you chose ' + agents.length + '.'); return; }
    // The default panel, unchanged, is the host's own: let the host pick it.
    if (agents.length !== boxes.length || custom.querySelector('.pname')?.value.trim()) body.agents = agents;
    submit.disabled = true;
    submit.textContent = 'Starting…';
    let res;
    try {
      res = await fetch(form.dataset.api, {
        method: 'POST', credentials: 'same-origin', cache: 'no-store',
        headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
      });
    } catch (err) {
      fail('The host could not be reached (' + err.message + '); check that roundtable host still runs, then try again.');
      return;
    }
    let got = {};
    try { got = await res.json(); } catch (_) { /* not JSON: said below */ }
    if (!res.ok) {
      fail((got && got.error) ? 'The host refused: ' + got.error : 'The host answered ' + res.status + '; try again.');
      return;
    }
    if (!got.page) { fail('The host started a debate but named no page; open it from the list below.'); return; }
    location.assign(got.page);
  });
  // The button is disabled until now: clicked before this script ran, the
  // form would submit itself as a plain GET and lose what was typed.
  submit.disabled = false;
})();

// The live page of a roundtable room: the server drew the room as it was;
// this follows the room's event stream (EventSource) from there. Text in
// progress is shown as plain text (textContent, never markup); each turn,
// note and verdict, once written, is fetched from the host as the HTML
// transcript renders it (sanitized there) and takes the text's place.
'use strict';
(function () {
  const main = document.getElementById('room');
  if (!main || typeof EventSource === 'undefined') return;
  const cols = new Map();
  for (const c of main.querySelectorAll('.col')) cols.set(c.dataset.seat, c);
  const notes = document.getElementById('notes');
  const verdict = document.getElementById('verdict');
  const state = document.getElementById('state');
  const round = document.getElementById('round');
  const end = document.getElementById('end');
  let seq = Number(main.dataset.seq) || 0;
  let noteSeq = Number(main.dataset.note) || 0;
  let rounds = Number(main.dataset.rounds) || 0;
  let finished = false;

  function setState(text, running) {
    state.textContent = text;
    state.classList.toggle('running', running);
  }
  function light(name) {
    for (const [seat, c] of cols) c.classList.toggle('lit', seat === name);
  }
  // liveTurn is a column's block of text in progress.
  function liveTurn(name) {
    const c = cols.get(name);
    return c ? c.querySelector('.live-turn') : null;
  }
  function clearLive(lt) {
    if (!lt) return;
    lt.hidden = true;
    delete lt.dataset.ended;
    lt.querySelector('.stream').textContent = '';
  }
  // The verdict as the moderator writes it.
  const liveVerdict = verdict.querySelector('.live-verdict');

  // Parts written since the page's last: fetched one request at a time,
  // again at once if more landed meanwhile.
  let fetching = false;
  let again = false;
  async function fetchParts() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      do {
        again = false;
        const url = main.dataset.parts + '?seq=' + seq + '&note=' + noteSeq;
        const res = await fetch(url, { credentials: 'same-origin', cache: 'no-store' });
        if (!res.ok) throw new Error('the host answered ' + res.status);
        addParts(await res.json());
      } while (again);
      // A turn over is in its column now (this fetch or the page's own
      // drawing had it): its text in progress goes.
      for (const lt of main.querySelectorAll('.live-turn[data-ended]')) clearLive(lt);
    } catch (err) {
      setState('could not load the latest turns (' + err.message + '); reload the page', false);
    } finally {
      fetching = false;
    }
  }
  function addParts(got) {
    for (const p of got.parts || []) {
      if (p.note) {
        if (p.seq <= noteSeq) continue;
        noteSeq = p.seq;
        notes.insertAdjacentHTML('beforeend', p.html);
        continue;
      }
      if (p.seq <= seq) continue;
      seq = p.seq;
      if (p.verdict) {
        verdict.hidden = false;
        clearLive(liveVerdict);
        liveVerdict.insertAdjacentHTML('beforebegin', p.html);
        continue;
      }
      const c = cols.get(p.seat);
      if (!c) continue;
      clearLive(liveTurn(p.seat));
      c.querySelector('.turns').insertAdjacentHTML('beforeend', p.html);
    }
    // How the room ended, once it has (while it runs, the state says).
    if (got.closed && got.end) {
      end.querySelector('p').textContent = got.end;
      end.className = 'end closed';
      end.hidden = false;
    }
    if (got.rounds) round.textContent = 'Round ' + got.rounds;
    if (got.status && !finished) setState(got.status, true);
    // An MCP room's spec, once the lead has written it and closed.
    const spec = document.getElementById('spec');
    if (got.spec && spec.hidden) {
      document.getElementById('spec-path').textContent = got.spec_path || '';
      document.getElementById('spec-body').insertAdjacentHTML('beforeend', got.spec);
      spec.hidden = false;
    }
  }

  const after = main.dataset.after;
  const es = new EventSource(main.dataset.stream + (after ? '?after=' + encodeURIComponent(after) : ''));
  const on = (name, fn) => es.addEventListener(name, (e) => {
    let d = {};
    try { d = JSON.parse(e.data || '{}'); } catch (_) { return; }
    fn(d);
  });
  on('session_start', (d) => { if (d.rounds) rounds = d.rounds; });
  on('round_start', (d) => { round.textContent = 'Round ' + d.round + (rounds ? ' of ' + rounds : ''); });
  on('turn_start', (d) => {
    light(d.agent);
    const lt = liveTurn(d.agent);
    if (lt) { lt.querySelector('.stream').textContent = ''; lt.hidden = false; }
    setState(d.agent + ' is speaking', true);
  });
  on('token', (d) => {
    const lt = liveTurn(d.agent);
    if (!lt) return;
    lt.hidden = false;
    lt.querySelector('.stream').append(d.text);
  });
  on('token_reset', (d) => {
    const lt = d.agent && cols.has(d.agent) ? liveTurn(d.agent) : liveVerdict;
    if (lt) lt.querySelector('.stream').textContent = '';
  });
  on('turn_end', (d) => {
    const lt = liveTurn(d.agent);
    if (lt) lt.dataset.ended = '1';
    fetchParts();
  });
  on('summary_token', (d) => {
    light(null);
    verdict.hidden = false;
    liveVerdict.hidden = false;
    liveVerdict.querySelector('.stream').append(d.text);
    setState('the moderator is giving the verdict', true);
  });
  on('summary', () => {
    light(null);
    liveVerdict.dataset.ended = '1';
    setState('the moderator gave the verdict', true);
    fetchParts();
  });
  on('seat_state', (d) => {
    const c = cols.get(d.seat);
    if (c) c.classList.toggle('empty-seat', !d.held);
  });
  on('closed', () => { fetchParts(); });
  on('note', () => { fetchParts(); });
  on('done', () => {
    finished = true;
    es.close();
    light(null);
    setState('finished', false);
    fetchParts();
  });
  // "error" is both the stream's own last event (with data) and the
  // browser's word for a lost connection (without): the first ends the
  // room, the second is retried by EventSource.
  es.addEventListener('error', (e) => {
    if (finished) return;
    if (typeof e.data === 'string') {
      let msg = 'the debate failed';
      try { msg = JSON.parse(e.data).message || msg; } catch (_) { /* keep the default */ }
      finished = true;
      es.close();
      light(null);
      setState(msg, false);
      fetchParts();
      return;
    }
    if (es.readyState === EventSource.CLOSED) {
      setState('the host closed the stream; reload the page to try again', false);
    } else {
      setState('connection lost; reconnecting…', false);
    }
  });
  es.addEventListener('open', () => {
    if (finished || main.dataset.closed) return;
    setState(state.textContent === 'connecting…' || state.textContent.startsWith('connection lost') ? 'live' : state.textContent, true);
  });
})();

// The live page of a roundtable room: the server drew the room as it was;
// this follows the room's event stream (EventSource) from there. Text in
// progress is drawn as Markdown as it streams (livetext below: DOM nodes
// built with createElement and textContent only, never markup from the
// text); each turn, note and verdict, once written, is fetched from the
// host as the HTML transcript renders it (sanitized there) and takes the
// text's place. Columns are found by the seat's own name (data-key), the
// one the stream uses, never by the name displayed.
'use strict';
(function () {
  const main = document.getElementById('room');
  if (!main || typeof EventSource === 'undefined') return;
  const byKey = new Map();   // the stream's names for the seats
  const byClass = new Map(); // the parts' seat classes
  for (const c of main.querySelectorAll('.col')) {
    byKey.set(c.dataset.key, c);
    byClass.set(c.dataset.class, c);
  }
  const columns = main.querySelector('.columns');
  const chips = new Map();
  for (const a of document.querySelectorAll('.strip .chip')) chips.set(a.dataset.class, a);
  const notes = document.getElementById('notes');
  const verdict = document.getElementById('verdict');
  const state = document.getElementById('state');
  const round = document.getElementById('round');
  const end = document.getElementById('end');
  let seq = Number(main.dataset.seq) || 0;
  let noteSeq = Number(main.dataset.note) || 0;
  let rounds = Number(main.dataset.rounds) || 0;
  let finished = false;
  const calm = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

  function setState(text, running) {
    state.textContent = text;
    state.classList.toggle('running', running);
  }
  // speaking says who speaks, the name isolated (it may run right to left).
  function speaking(c) {
    const who = document.createElement('bdi');
    who.textContent = c.dataset.seat;
    state.replaceChildren(who, ' is speaking');
    state.classList.add('running');
  }
  // light marks column c (null: none) as the speaker's, and brings it
  // into view when the columns scroll sideways.
  function light(c) {
    for (const col of byKey.values()) col.classList.toggle('lit', col === c);
    for (const [cl, chip] of chips) chip.classList.toggle('lit', !!c && cl === c.dataset.class);
    columns.classList.toggle('has-speaker', !!c);
    if (!c || columns.scrollWidth <= columns.clientWidth + 1) return;
    const left = c.getBoundingClientRect().left - columns.getBoundingClientRect().left - columns.clientLeft + columns.scrollLeft;
    const right = left + c.offsetWidth;
    const view = columns.scrollLeft;
    if (left >= view && right <= view + columns.clientWidth) return;
    const to = left - Math.max(0, (columns.clientWidth - c.offsetWidth) / 2);
    columns.scrollTo({ left: Math.max(0, to), behavior: calm ? 'auto' : 'smooth' });
  }

  // ---- livetext: Markdown drawn as it streams ----
  // The text splits into finished blocks (up to the last blank line
  // outside a code fence), each drawn once, and a tail drawn again with
  // each token while it is short, at most once a frame once it is long. Runs of text longer than plainAbove are drawn as plain
  // text, and a closer known missing is not looked for again: the inline
  // pass is bounded, whatever the text.
  const plainAbove = 8000;
  const drawAtOnce = 2048;
  const maxDepth = 4;
  const fenceRE = /^ {0,3}(`{3,}|~{3,})/;

  // safeText is transcript.SanitizeTerminal, as the host applies it to
  // every message before rendering: newlines and tabs kept, a CRLF a
  // newline, other C0 controls their control pictures, DEL "␡", C1
  // controls and the bidirectional embeddings, overrides and isolates
  // "<U+XXXX>" (so streamed text reads as it will once finished).
  const unsafeRE = /\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
  function safeText(s) {
    return s.replace(unsafeRE, (c) => {
      if (c === '\r\n') return '\n';
      const n = c.charCodeAt(0);
      if (n < 0x20) return String.fromCharCode(0x2400 + n);
      if (n === 0x7f) return '\u2421';
      return '<U+' + n.toString(16).toUpperCase().padStart(4, '0') + '>';
    });
  }

  function el(tag, cls) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    return e;
  }
  function isBlank(line) { return line.trim() === ''; }

  // inline appends text's inline Markdown to parent: code, strong, em,
  // strikethrough, link text (no link: the finished turn, sanitized by
  // the host, has it), backslash escapes.
  function inline(parent, text, depth) {
    if (depth > maxDepth || text.length > plainAbove) { parent.append(text); return; }
    // A closer not found from one place is not found from any later one:
    // each is looked for at most once after it is known missing.
    const miss = Object.create(null);
    const find = (s, from) => {
      if (miss[s] !== undefined && from >= miss[s]) return -1;
      const at = text.indexOf(s, from);
      if (at < 0) miss[s] = from;
      return at;
    };
    let plain = '';
    const flush = () => { if (plain) { parent.append(plain); plain = ''; } };
    let i = 0;
    while (i < text.length) {
      const ch = text[i];
      if (ch === '\\' && i + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[i + 1])) {
        plain += text[i + 1]; i += 2; continue;
      }
      if (ch === '`') {
        let n = 1;
        while (text[i + n] === '`') n++;
        const tick = '`'.repeat(n);
        const close = find(tick, i + n);
        if (close > i + n) {
          flush();
          const code = el('code');
          code.textContent = text.slice(i + n, close).replace(/\n/g, ' ');
          parent.append(code);
          i = close + n; continue;
        }
        plain += tick; i += n; continue;
      }
      if ((ch === '*' || ch === '_' || ch === '~') && text[i + 1] === ch) {
        const mark = ch + ch;
        const close = find(mark, i + 2);
        if (close > i + 2 && !isBlank(text.slice(i + 2, close))) {
          flush();
          const e = el(ch === '~' ? 'del' : 'strong');
          inline(e, text.slice(i + 2, close), depth + 1);
          parent.append(e);
          i = close + 2; continue;
        }
        plain += mark; i += 2; continue;
      }
      if ((ch === '*' || ch === '_') && text[i + 1] && text[i + 1] !== ' ' && (ch === '*' || i === 0 || /\W/.test(text[i - 1]))) {
        let close = find(ch, i + 1);
        while (close > 0 && text[close + 1] === ch) close = find(ch, close + 2);
        if (close > i + 1 && text[close - 1] !== ' ') {
          flush();
          const e = el('em');
          inline(e, text.slice(i + 1, close), depth + 1);
          parent.append(e);
          i = close + 1; continue;
        }
      }
      if (ch === '[') {
        const mid = find('](', i + 1);
        const close = mid > 0 ? find(')', mid + 2) : -1;
        if (mid > i + 1 && mid - i < 300 && close > 0 && text.slice(i + 1, mid).indexOf('\n') < 0) {
          flush();
          const e = el('span', 'link');
          inline(e, text.slice(i + 1, mid), depth + 1);
          parent.append(e);
          i = close + 1; continue;
        }
      }
      plain += ch; i++;
    }
    flush();
  }

  const headRE = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$/;
  const ruleRE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
  const quoteRE = /^ {0,3}> ?/;
  const itemRE = /^( {0,3})([-*+]|(\d{1,9})[.)])[ \t]+/;

  // blocks appends src's blocks to parent (a paragraph longer than
  // plainAbove is plain text: inline() draws it as such).
  function blocks(parent, src, depth) {
    if (depth > maxDepth) {
      const p = el('p', 'plain');
      p.textContent = src;
      parent.append(p);
      return;
    }
    const lines = src.split('\n');
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      if (isBlank(line)) { i++; continue; }
      const fence = line.match(fenceRE);
      if (fence) {
        const mark = fence[1];
        const body = [];
        i++;
        while (i < lines.length && !(lines[i].trim().startsWith(mark) && lines[i].trim().replace(new RegExp('^' + mark[0] + '+'), '').trim() === '')) body.push(lines[i++]);
        i++; // the closing fence, if any
        const pre = el('pre');
        const code = el('code');
        code.textContent = body.join('\n');
        pre.append(code);
        parent.append(pre);
        continue;
      }
      const head = line.match(headRE);
      if (head) {
        const h = el('h' + head[1].length);
        inline(h, head[2] || '', depth);
        parent.append(h);
        i++; continue;
      }
      if (ruleRE.test(line)) { parent.append(el('hr')); i++; continue; }
      if (quoteRE.test(line)) {
        const body = [];
        while (i < lines.length && quoteRE.test(lines[i])) body.push(lines[i++].replace(quoteRE, ''));
        const q = el('blockquote');
        blocks(q, body.join('\n'), depth + 1);
        parent.append(q);
        continue;
      }
      const item = line.match(itemRE);
      if (item) {
        const list = el(item[3] !== undefined ? 'ol' : 'ul');
        if (item[3] !== undefined && item[3] !== '1') list.start = Number(item[3]);
        let cur = null;
        while (i < lines.length && !isBlank(lines[i])) {
          const m = lines[i].match(itemRE);
          if (m) {
            cur = [lines[i].slice(m[0].length)];
            const li = el('li');
            list.append(li);
            cur.li = li;
          } else if (fenceRE.test(lines[i]) || headRE.test(lines[i])) {
            break;
          } else {
            cur.push(lines[i].trim());
          }
          inline((cur.li.replaceChildren(), cur.li), cur.join('\n'), depth);
          i++;
        }
        parent.append(list);
        continue;
      }
      const para = [];
      while (i < lines.length && !isBlank(lines[i]) && !fenceRE.test(lines[i]) && !headRE.test(lines[i]) &&
        !quoteRE.test(lines[i]) && !(para.length && itemRE.test(lines[i]))) para.push(lines[i++]);
      if (!para.length) para.push(lines[i++]);
      const p = el('p');
      inline(p, para.join('\n'), depth);
      parent.append(p);
    }
  }

  // LiveText is one block of text in progress (a column's turn, the
  // verdict): its finished blocks and its tail.
  function LiveText(box) {
    this.box = box;
    this.stream = box.querySelector('.stream');
    this.done = el('div', 'done');
    this.tail = el('div', 'tail');
    this.stream.replaceChildren(this.done, this.tail);
    this.reset();
  }
  LiveText.prototype.reset = function () {
    this.text = '';
    this.start = 0;   // where the unfinished blocks begin
    this.scan = 0;    // the first line not yet looked at
    this.fence = '';  // the fence open at scan, if any
    this.pending = false;
    this.cr = '';
    this.done.replaceChildren();
    this.tail.replaceChildren();
  };
  LiveText.prototype.append = function (s) {
    // A CR at a token's end may be half of a CRLF: held for the next.
    s = this.cr + s;
    this.cr = '';
    if (s.endsWith('\r')) { this.cr = '\r'; s = s.slice(0, -1); }
    this.text += safeText(s);
    // A short tail is drawn at once (the token shows with no wait); a
    // long one at most once a frame, so a run of text with no blank line
    // costs its length per frame, not per token.
    if (this.text.length - this.start <= drawAtOnce && !this.pending) { this.draw(); return; }
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => this.draw());
  };
  LiveText.prototype.draw = function () {
    this.pending = false;
    const t = this.text;
    let cut = -1;
    for (let nl = t.indexOf('\n', this.scan); nl >= 0; nl = t.indexOf('\n', this.scan)) {
      const line = t.slice(this.scan, nl);
      if (this.fence) {
        const tr = line.trim();
        if (tr.startsWith(this.fence) && tr.replace(/^[`~]+/, '').trim() === '') this.fence = '';
      } else {
        const f = line.match(fenceRE);
        if (f) this.fence = f[1];
        else if (isBlank(line)) cut = nl + 1;
      }
      this.scan = nl + 1;
    }
    if (cut > this.start) {
      blocks(this.done, t.slice(this.start, cut), 0);
      this.start = cut;
    }
    this.tail.replaceChildren();
    blocks(this.tail, t.slice(this.start), 0);
    // The caret goes after the last word, however deep it is.
    let last = this.tail.lastElementChild;
    while (last && last.lastElementChild && last.tagName !== 'CODE') last = last.lastElementChild;
    if (last) last.classList.add('caret');
  };
  LiveText.prototype.show = function () { this.box.hidden = false; };
  LiveText.prototype.clear = function () {
    this.box.hidden = true;
    delete this.box.dataset.ended;
    this.reset();
  };
  // Text at once (the tests and the benchmark draw with it).
  LiveText.prototype.flush = function () { this.draw(); };

  const lives = new Map(); // live-turn element → LiveText
  function live(box) {
    if (!box) return null;
    let lt = lives.get(box);
    if (!lt) { lt = new LiveText(box); lives.set(box, lt); }
    return lt;
  }
  // liveTurn is the text in progress of the seat the stream calls key.
  function liveTurn(key) {
    const c = byKey.get(key);
    return c ? live(c.querySelector('.live-turn')) : null;
  }
  const liveVerdict = live(verdict.querySelector('.live-verdict'));
  window.roundtableLive = { live, blocks, inline, byKey };

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
      for (const box of main.querySelectorAll('.live-turn[data-ended]')) live(box).clear();
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
        liveVerdict.clear();
        liveVerdict.box.insertAdjacentHTML('beforebegin', p.html);
        continue;
      }
      const c = byClass.get(p.class);
      if (!c) continue;
      live(c.querySelector('.live-turn')).clear();
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
    const c = byKey.get(d.agent) || null;
    light(c);
    const lt = liveTurn(d.agent);
    if (lt) { lt.reset(); lt.show(); }
    if (c) speaking(c); else setState(String(d.agent || 'the moderator') + ' is speaking', true);
  });
  on('token', (d) => {
    const lt = liveTurn(d.agent);
    if (!lt) return;
    lt.show();
    lt.append(d.text);
  });
  on('token_reset', (d) => {
    const lt = d.agent && byKey.has(d.agent) ? liveTurn(d.agent) : liveVerdict;
    if (lt) lt.reset();
  });
  on('turn_end', (d) => {
    const lt = liveTurn(d.agent);
    if (lt) lt.box.dataset.ended = '1';
    fetchParts();
  });
  // A persona ranked the others (--rank): its ranking is a part of the
  // verdict's place, fetched as a turn is.
  on('ranking', (d) => {
    light(null);
    setState(String(d.agent || 'a persona') + ' ranked the others', true);
    fetchParts();
  });
  on('summary_token', (d) => {
    light(null);
    verdict.hidden = false;
    liveVerdict.show();
    liveVerdict.append(d.text);
    setState('the moderator is giving the verdict', true);
  });
  on('summary', () => {
    light(null);
    liveVerdict.box.dataset.ended = '1';
    setState('the moderator gave the verdict', true);
    fetchParts();
  });
  on('seat_state', (d) => {
    const c = byKey.get(d.seat);
    if (c) c.classList.toggle('empty-seat', !d.held);
  });
  on('closed', () => { fetchParts(); });
  on('note', () => { fetchParts(); });
  // The debate waits between two rounds for the person running it; its
  // next turn (or verdict) says it went on.
  on('pause', (d) => {
    light(null);
    setState('paused after round ' + d.round + ': the debate waits for the person running it', false);
  });
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

// Class mode (issue 34): the hand-out page in live mode, served by `tilescope class`. The
// server sends handout.html without data; this script joins the class with the code in
// the link (#code=...) or typed, fetches the lesson's frames once, puts them where
// handout.js reads its data, loads handout.js, then follows the instructor's step, the
// frame in it (the window's group, part and iteration, or "step" presses from where the
// step opens) and Reveal by long polling /api/state. A student may step alone (any of the page's own
// step buttons or keys) and press "follow" to come back. On a step with a question it
// takes one guess; the answer arrives only after the instructor's Reveal, beside the guess.
// What it shows is recorded in #painted's data-live-* attributes for headless tests.
"use strict";
(function () {
  const live = { token: null, seq: 0, following: true, applying: false, state: null, code: '' };
  window.TILESCOPE_LIVE = live;
  const bar = document.createElement('div');
  bar.id = 'livebar';
  bar.style.cssText = 'position:sticky;top:0;z-index:5;background:#fffbe6;border-bottom:1px solid #d9c66b;padding:6px 8px;font:15px sans-serif';
  document.body.insertBefore(bar, document.body.firstChild);
  function el(tag, text, id) {
    const e = document.createElement(tag);
    if (text) e.textContent = text;
    if (id) e.id = id;
    return e;
  }
  const status = el('span', 'joining the class\u2026', 'livestatus');
  const follow = el('button', 'follow the instructor', 'livefollow');
  follow.hidden = true;
  follow.style.marginLeft = '8px';
  const counts = el('span', '', 'livecounts');
  counts.style.cssText = 'margin-left:8px;color:#555';
  const ask = el('form', '', 'liveask');
  ask.hidden = true;
  const input = el('input', '', 'liveguess');
  input.inputMode = 'decimal'; input.autocomplete = 'off'; input.maxLength = 32; input.placeholder = 'your guess (a number)';
  input.style.cssText = 'font-size:16px;width:12em;max-width:60%';
  input.addEventListener('keydown', function (ev) { ev.stopPropagation(); });  // typing is not stepping
  const send = el('button', 'send guess', 'livesend');
  send.type = 'submit';
  ask.appendChild(input); ask.appendChild(send);
  const mine = el('p', '', 'livemine');
  const answer = el('p', '', 'liveanswer');
  answer.style.fontWeight = 'bold';
  const problem = el('p', '', 'liveproblem');
  problem.style.color = '#a00';
  for (const e of [status, follow, counts, ask, mine, answer, problem]) bar.appendChild(e);
  function rec() { return document.getElementById('painted'); }
  function record(k, v) { const r = rec(); if (r) r.dataset[k] = String(v); }

  function hashCode() {
    const m = /(?:^|[#&])code=([A-Za-z0-9 -]{1,16})/.exec(location.hash);
    return m ? m[1] : '';
  }
  function api(method, path, body) {
    const opts = { method: method, headers: {}, cache: 'no-store' };
    if (live.token) opts.headers['X-Token'] = live.token;
    if (body !== undefined) { opts.headers['Content-Type'] = 'application/json'; opts.body = JSON.stringify(body); }
    return fetch(path, opts).then(function (r) {
      return r.text().then(function (t) {
        let j = null;
        try { j = JSON.parse(t); } catch (e) { j = null; }
        if (!r.ok) { const err = new Error((j && j.error) || ('HTTP ' + r.status)); err.status = r.status; throw err; }
        return j === null ? t : j;
      });
    });
  }
  function askCode(why) {
    status.textContent = why + ' Type the join code shown on the projector:';
    const f = el('form', '', 'livejoin');
    const c = el('input', '', 'livecode');
    c.maxLength = 16; c.autocapitalize = 'characters';
    f.appendChild(c); f.appendChild(el('button', 'join'));
    f.onsubmit = function (ev) { ev.preventDefault(); f.remove(); join(c.value); };
    bar.appendChild(f);
  }
  function join(code) {
    live.code = code;
    const saved = sessionStorage.getItem('tilescope-token-' + code);
    const joined = saved ? Promise.resolve({ token: saved }) : api('POST', '/api/join', { code: code });
    joined.then(function (j) {
      live.token = j.token;
      sessionStorage.setItem('tilescope-token-' + code, j.token);
      status.textContent = 'loading the lesson\u2026';
      return api('GET', '/api/data');
    }).then(function (data) {
      document.getElementById('tilescope-data').textContent = typeof data === 'string' ? data : JSON.stringify(data);
      const s = document.createElement('script');
      s.src = 'handout.js';
      s.onload = started;
      document.body.appendChild(s);
    }).catch(function (e) {
      if (saved && e.status === 403) { sessionStorage.removeItem('tilescope-token-' + code); live.token = null; join(code); return; }
      askCode('Could not join: ' + e.message + '.');
    });
  }

  // The instructor's place in the step (the window's group, part and iteration) as openAt
  // takes it: the step's own opening (work-item, naming, heat) with the place's group,
  // barrier interval and iteration instead of its phase and part.
  function placeArgs(open, p) {
    const a = Object.assign({}, open || {});
    for (const k of ['phase', 'part', 'iteration', 'interval', 'step', 'partstep', 'select', 'hover']) delete a[k];
    a.group = p.group;
    a.interval = p.interval;
    if (p.iteration !== null && p.iteration !== undefined) a.iteration = p.iteration;
    return a;
  }
  // Where the instructor is, applied to the page (the hand-out's own functions).
  function apply() {
    const st = live.state;
    if (!st || !live.following) return;
    live.applying = true;
    try {
      if (typeof LESSON !== 'undefined' && LESSON) {
        openLessonStep(st.step);
        if (DATA && st.place) openAt(placeArgs(LESSON.lesson_steps[LESSON.current].open, st.place));
        else if (DATA) for (let i = 0; i < st.frame_step; ++i) step(1);
      } else if (DATA) {
        openAt(st.place ? placeArgs({}, st.place) : { step: st.frame_step });
      }
    } finally { live.applying = false; }
    record('liveAppliedSeq', st.seq);
  }
  function showQuestion() {
    const st = live.state;
    if (!st) return;
    counts.textContent = st.joined + ' joined' + (st.question ? ', ' + st.answered + ' answered' : '');
    const own = typeof LESSON !== 'undefined' && LESSON ? LESSON.current : 0;
    const here = own === st.step;  // the question is the instructor's step's
    ask.hidden = !(st.question && here && !st.revealed && st.mine === null && !live.sent);
    mine.textContent = st.question && here && st.mine !== null ? 'Your guess: ' + st.mine : '';
    if (st.question && here && st.revealed && st.answer) {
      const a = st.answer;
      answer.textContent = 'Answer: ' + a.value + (a.formula ? ' (closed form: ' + a.formula + ')' : '') + '. ' + a.explanation +
        (st.mine !== null ? ' \u2014 your guess: ' + st.mine : ' \u2014 you did not guess');
    } else answer.textContent = '';
    const notes = document.getElementById('script');  // held with the answer (handout.js)
    if (notes && st.question && here && st.revealed && typeof LESSON !== 'undefined' && LESSON) {
      notes.textContent = LESSON.lesson_steps[own].script; notes.classList.remove('held');
    }
    // The room's Reveal brings back what the question held (the page's own Reveal does the
    // same): counters, timeline, occupancy, hover counts.
    if (st.question && here && st.revealed && typeof LESSON !== 'undefined' && LESSON && state.hide.length) {
      state.hide = []; record('hidden', '');
      if (DATA) { fillStatic(); document.getElementById('group').value = String(state.group); paint(); }
    }
    const reveal = document.getElementById('reveal');
    if (reveal) reveal.hidden = true;  // Reveal is the instructor's
    record('liveStep', st.step); record('liveFrame', st.frame_step);
    record('livePlace', st.place ? [st.place.group.join(','), st.place.interval, st.place.phase, st.place.part,
      st.place.iteration === null ? '' : st.place.iteration].join(' ') : ''); record('liveRevealed', st.revealed ? 1 : 0);
    record('liveMine', st.mine === null ? '' : st.mine); record('liveAnswer', st.revealed && st.answer ? st.answer.value : '');
    record('liveFollowing', live.following ? 1 : 0);
  }
  function setFollowing(on) {
    live.following = on;
    follow.hidden = on;
    status.textContent = live.state && live.state.closed ? 'The class has ended.' :
      on ? 'Following the instructor (step ' + (live.state ? live.state.step + 1 : 1) + ')' : 'On your own';
    if (on) apply();
    showQuestion();
  }
  follow.onclick = function () { setFollowing(true); };
  ask.onsubmit = function (ev) {
    ev.preventDefault();
    const st = live.state;
    problem.textContent = '';
    live.sent = true;
    api('POST', '/api/answer', { step: st.step, value: input.value.trim() }).then(function () {
      st.mine = input.value.trim();
      showQuestion();
    }).catch(function (e) { live.sent = false; problem.textContent = e.message; showQuestion(); });
  };
  function poll() {
    api('GET', '/api/state?since=' + live.seq).then(function (st) {
      const moved = !live.state || st.step !== live.state.step || st.frame_step !== live.state.frame_step ||
        JSON.stringify(st.place) !== JSON.stringify(live.state.place);
      if (live.state && st.step !== live.state.step) { live.sent = false; input.value = ''; }
      live.state = st;
      live.seq = st.seq;
      if (moved && live.following) apply();
      setFollowing(live.following);
      if (st.closed) return;
      poll();
    }).catch(function (e) {
      problem.textContent = e.status === 429 ? '' : 'Lost the class (' + e.message + '); trying again\u2026';
      setTimeout(poll, e.status === 429 ? 2000 : 1000);
    });
  }
  // Any step the student takes on the page's own controls: on their own until "follow".
  function own(ev) {
    if (live.applying || !live.state) return;
    setFollowing(false);
  }
  function started() {
    for (const id of ['lprev', 'lnext', 'prev', 'next', 'prevpart', 'nextpart', 'play'])
      document.getElementById(id).addEventListener('click', own, true);
    document.addEventListener('keydown', function (ev) {
      if (/^(Arrow|Page)/.test(ev.key) || ev.key === ' ') { if (ev.target !== input) own(ev); }
    }, true);
    document.getElementById('errors').dataset.live = '1';
    poll();
  }
  const code = hashCode();
  if (code) join(code); else askCode('');
})();

#!/usr/bin/python3
"""Class mode in a real browser (issue 34): `tilescope class` serves a lesson; headless
chromium opens two student pages (375 px and 1280 px wide) driven over the DevTools
protocol on a pipe (--remote-debugging-pipe: no network, no extra packages). Both follow a
step change within a second (from the GUI, also its part and iteration), one answers, the instructor's tally counts it, Reveal reaches
both pages (the guesser sees its guess beside the answer), and the CSV tally holds it.
Usage: class_browser_test.py TILESCOPE LESSON.json SCRATCH_DIR [SHOTS_DIR]
(SHOTS_DIR: also saves class_phone.png and class_wide.png after Reveal, for docs/guide.md,
and with CLASS_TEST_GUI=1 class_projector.png, the GUI's window.)"""
import json, os, re, select, subprocess, sys, tempfile, time

tilescope, lesson, scratch = sys.argv[1], sys.argv[2], sys.argv[3]
# CLASS_TEST_GUI=1: the class is started from the GUI under Xvfb (its control file stands in
# for the instructor's clicks: class, lesson-step, step, part, reveal, state, text, quit)
# instead of the CLI.
GUI = os.environ.get('CLASS_TEST_GUI') == '1'
os.makedirs(scratch, exist_ok=True)
failures = []
START = time.time()

def check(ok, what):
    print('%5.1fs ' % (time.time() - START) + ('ok   ' if ok else 'FAIL ') + what, flush=True)
    if not ok:
        failures.append(what)

tally = os.path.join(scratch, 'class_tally.csv')
if os.path.exists(tally):
    os.remove(tally)
control = os.path.join(scratch, 'class_gui_control')
if GUI:
    # A screen larger than the window: the pointer (at the screen's centre) is off the window,
    # so no hover tooltip sits on the projector's screenshot.
    # Its own settings folder: a saved presenter mode (from anyone's earlier session in this
    # HOME) would fold the side panel, and the Class section with it, away.
    gui_env = dict(os.environ, XDG_CONFIG_HOME=tempfile.mkdtemp(dir=scratch, prefix='config-'))
    cls = subprocess.Popen(['xvfb-run', '-a', '-s', '-screen 0 2600x1700x24', tilescope, 'gui', '--lesson', lesson, '--control', control],
                           env=gui_env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
else:
    cls = subprocess.Popen([tilescope, 'class', '--lesson', lesson, '--listen', '127.0.0.1:0', '--code', 'TEST42', '--tally', tally],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
gui_step = [0]

def tell(line):
    # One command file at a time: a new one written over one the GUI has not taken yet
    # (it looks four times a second) would lose the first.
    end = time.time() + 3
    while os.path.exists(control) and time.time() < end:
        time.sleep(0.02)
    with open(control + '.tmp', 'w') as f:
        f.write(line + '\n')
    os.rename(control + '.tmp', control)

def key(k):
    """The instructor's key: the CLI's stdin, or the GUI's control file."""
    if not GUI:
        cls.stdin.write(k); cls.stdin.flush(); return
    if k in 'np':
        gui_step[0] += 1 if k == 'n' else -1
        tell('lesson-step %d' % gui_step[0])
    elif k == 'r':
        tell('reveal')
    elif k == 'q':
        tell('quit')

def instructor_sees(pattern, timeout=5):
    if not GUI:
        return read_class(pattern, timeout) is not None
    end = time.time() + timeout
    shot = os.path.join(scratch, 'class_gui_text.txt')
    while time.time() < end:
        if os.path.exists(shot):
            os.remove(shot)
        tell('text ' + shot)
        t1 = time.time() + 2
        while time.time() < t1 and not os.path.exists(shot):
            time.sleep(0.05)
        if os.path.exists(shot) and re.search(pattern, open(shot, errors='replace').read()):
            return True
        time.sleep(0.2)
    return False
out_lines = []

class_buf = ['']

def read_class(until, timeout=60):
    """The class's next output line matching `until` (its own buffer: select sees the fd only)."""
    end = time.time() + timeout
    while True:
        while '\n' in class_buf[0]:
            line, class_buf[0] = class_buf[0].split('\n', 1)
            out_lines.append(line + '\n')
            if re.search(until, line):
                return line
        if time.time() >= end:
            return None
        r, _, _ = select.select([cls.stdout], [], [], 0.2)
        if r:
            chunk = os.read(cls.stdout.fileno(), 65536)
            if not chunk:
                return None
            class_buf[0] += chunk.decode('utf-8', 'replace')

if GUI:
    time.sleep(3)
    tell('class 127.0.0.1:0')
    line = read_class(r'class: open (http://\S+)', 90)
    if not line:
        print(''.join(out_lines)); sys.exit('the GUI did not start a class')
    url = re.search(r'(http://\S+)', line).group(1)
    check(True, 'the GUI started a class: ' + url)
else:
    line = read_class(r'serving on 127\.0\.0\.1:(\d+)')
    if not line:
        print(''.join(out_lines)); sys.exit('the class did not start')
    port = int(re.search(r':(\d+)', line).group(1))
    check(read_class(r'^step 1/') is not None, 'the class started: step 1')
    url = 'http://127.0.0.1:%d/#code=TEST42' % port

# chromium reads DevTools commands from fd 3 and writes replies to fd 4, NUL-terminated.
to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()
profile = tempfile.mkdtemp(dir=scratch, prefix='chromium-class-')
def child_fds():
    os.dup2(to_chrome_r, 3); os.dup2(from_chrome_w, 4)
chrome = subprocess.Popen(['chromium', '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
                           '--disable-background-networking', '--disable-component-update', '--disable-sync',
                           '--remote-debugging-pipe', '--user-data-dir=' + profile, 'about:blank'],
                          pass_fds=(3, 4), preexec_fn=child_fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
# (pass_fds keeps 3 and 4 open in the child; preexec_fn put our pipe ends there first.)
os.close(to_chrome_r); os.close(from_chrome_w)
buf = b''
next_id = [0]
def cdp(method, params=None, session=None, timeout=20):
    global buf
    next_id[0] += 1
    msg = {'id': next_id[0], 'method': method, 'params': params or {}}
    if session:
        msg['sessionId'] = session
    os.write(to_chrome_w, json.dumps(msg).encode() + b'\0')
    end = time.time() + timeout
    while time.time() < end:
        while b'\0' in buf:
            raw, buf = buf.split(b'\0', 1)
            m = json.loads(raw)
            if m.get('id') == next_id[0]:
                if 'error' in m:
                    raise RuntimeError(method + ': ' + str(m['error']))
                return m.get('result', {})
        r, _, _ = select.select([from_chrome_r], [], [], 0.2)
        if r:
            buf += os.read(from_chrome_r, 1 << 20)
    raise RuntimeError(method + ': no reply')

def open_page(width):
    target = cdp('Target.createTarget', {'url': 'about:blank'})['targetId']
    s = cdp('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
    cdp('Emulation.setDeviceMetricsOverride', {'width': width, 'height': 900, 'deviceScaleFactor': 1, 'mobile': width < 500}, s)
    cdp('Page.enable', {}, s)
    cdp('Page.navigate', {'url': url}, s)
    return s

def js(s, expr):
    r = cdp('Runtime.evaluate', {'expression': expr, 'returnByValue': True}, s)
    return r.get('result', {}).get('value')

PAINTED = "(function(){const p=document.getElementById('painted');const e=document.getElementById('errors');" \
          "return p?Object.assign({errors:(e&&e.dataset.count)||'0',width:document.documentElement.scrollWidth," \
          "answer:(document.getElementById('liveanswer')||{}).textContent||''},p.dataset):null})()"

def wait_for(s, pred, timeout=10):
    end = time.time() + timeout
    last = None
    while time.time() < end:
        try:
            last = js(s, PAINTED)
        except RuntimeError:
            last = None
        if last and pred(last):
            return last, True
        time.sleep(0.05)
    return last, False

try:
    phone, wide = open_page(375), open_page(1280)
    check(True, 'two pages opened')
    for name, s in (('375 px', phone), ('1280 px', wide)):
        st, ok = wait_for(s, lambda d: d.get('liveStep') == '0' and d.get('ready') == '1', 30)
        check(ok, name + ' page joined and follows step 1: ' + json.dumps(st)[:300])
    check(instructor_sees(r'2 joined', 10), 'the instructor sees 2 joined')

    # The frame within the step (the page's own "step": part, iteration), then back.
    if not GUI:  # the GUI's room follows the lesson step (its frames are the GUI's own)
        key('f')
        for name, s in (('375 px', phone), ('1280 px', wide)):
            st, ok = wait_for(s, lambda d: d.get('liveFrame') == '1' and d.get('step') == '1', 5)
            check(ok, name + ' page followed the frame forward: ' + json.dumps({k: st.get(k) for k in ('step', 'title')} if st else None))
        key('b')
        st, ok = wait_for(phone, lambda d: d.get('liveFrame') == '0' and d.get('step') == '0', 5)
        check(ok, 'and back')

    if GUI:  # the window's own part and iteration (its timeline's Step > and Part >>) reach the pages
        def gui_place(timeout=5):
            """The GUI's place as its class publishes it (the control file's state report)."""
            end = time.time() + timeout
            report = os.path.join(scratch, 'class_gui_state.json')
            while time.time() < end:
                if os.path.exists(report):
                    os.remove(report)
                tell('state ' + report)
                t1 = time.time() + 2
                while time.time() < t1 and not os.path.exists(report):
                    time.sleep(0.05)
                if os.path.exists(report):
                    p = json.load(open(report)).get('place')
                    if p:
                        return p
                time.sleep(0.1)
            return None
        opening = gui_place()
        check(opening is not None, "the GUI's place at the step's opening: " + json.dumps(opening))
        for what, command in (('Step > twice (an iteration of the use part)', 'step 2'), ('Part >>', 'part 1')):
            before = gui_place()
            t0 = time.time()
            tell(command)
            end = time.time() + 5
            place = before
            while time.time() < end and place == before:
                place = gui_place()
            check(place is not None and place != before and place != opening,
                  'the GUI moved: %s -> %s' % (json.dumps(before), json.dumps(place)))
            if place is None:
                continue
            if command == 'step 2':
                check(place['iteration'] is not None, 'Step > reached an iteration of a use part: %s' % json.dumps(place))
            want = {'group': ','.join(map(str, place['group'])), 'phase': str(place['phase']), 'part': place['part'],
                    'iteration': '' if place['iteration'] is None else str(place['iteration'])}
            for name, s in (('375 px', phone), ('1280 px', wide)):
                st, ok = wait_for(s, lambda d: all(d.get(k) == v for k, v in want.items()), 5)
                check(ok and time.time() - t0 < 1.5, '%s page followed %s to %s in %.2f s (page: %s)' % (
                    name, what, json.dumps(want), time.time() - t0,
                    json.dumps({k: st.get(k) for k in ('group', 'phase', 'part', 'iteration', 'title')} if st else None)))

    # liveStep is the server's step, from 0; the page's lessonStep counts from 1, as the GUI does.
    t0 = time.time()
    key('n')
    for name, s in (('375 px', phone), ('1280 px', wide)):
        st, ok = wait_for(s, lambda d: d.get('liveStep') == '1' and d.get('lessonStep') == '2', 5)
        check(ok and time.time() - t0 < 1.5, name + ' page followed the step change in %.2f s' % (time.time() - t0))
    key('p')
    for s in (phone, wide):
        wait_for(s, lambda d: d.get('liveStep') == '0' and d.get('lessonStep') == '1', 5)
    check(js(wide, "document.getElementById('liveask').hidden") is False, 'the question step shows the guess form')
    check(js(phone, "document.getElementById('answer').hidden !== false || document.getElementById('answer').textContent.indexOf('?') >= 0 || document.getElementById('answer').textContent === ''"),
          "the hand-out's own answer line holds no answer before Reveal")
    js(phone, "document.getElementById('liveguess').value='4'; document.getElementById('livesend').click(); 1")
    st, ok = wait_for(phone, lambda d: d.get('liveMine') == '4', 5)
    check(ok, 'the phone page shows its own guess: ' + json.dumps(st)[:200])
    check(instructor_sees(r'1 answered', 5), "the instructor's tally counts the answer")
    check(js(phone, "String(document.getElementById('liveask').hidden)") == 'true', 'one guess per step: the form is gone once sent')

    held = js(phone, "document.getElementById('painted').dataset.hidden")
    check(held not in ('', None), 'the question step holds its figures back before Reveal: ' + str(held))
    key('r')
    st, ok = wait_for(phone, lambda d: d.get('liveRevealed') == '1', 5)
    check(js(phone, "document.getElementById('painted').dataset.hidden") == '',
          "the room's Reveal brings the held figures back on the phone page")
    check(ok and st.get('liveAnswer') not in ('', '?') and 'your guess: 4' in st.get('answer', ''),
          'Reveal reached the phone page, its guess beside the answer: ' + st.get('answer', '')[:120])
    st2, ok = wait_for(wide, lambda d: d.get('liveRevealed') == '1', 5)
    check(ok and st2.get('liveAnswer') == st.get('liveAnswer') and 'did not guess' in st2.get('answer', ''),
          'Reveal reached the wide page: ' + st2.get('answer', '')[:120])
    if len(sys.argv) > 4:
        import base64
        for name, s in (('class_phone.png', phone), ('class_wide.png', wide)):
            shot = cdp('Page.captureScreenshot', {'format': 'png'}, s)
            with open(os.path.join(sys.argv[4], name), 'wb') as f:
                f.write(base64.b64decode(shot['data']))
        if GUI:  # the projector: the GUI's window with the Class section
            tell('screenshot ' + os.path.join(os.path.abspath(sys.argv[4]), 'class_projector.png'))
            check(read_class(r'^saved ', 20) is not None, 'the projector screenshot was saved')
    for name, s, w in (('375 px', phone, 375), ('1280 px', wide, 1280)):
        d = js(s, PAINTED)
        check(d['errors'] == '0', name + ' page: no script errors')
        check(d['width'] <= w + 1, name + ' page: no sideways scrolling (%s px wide)' % d['width'])
    # The student may step alone and follow again.
    js(wide, "document.getElementById('lnext').click(); 1")
    st, ok = wait_for(wide, lambda d: d.get('liveFollowing') == '0' and d.get('lessonStep') == '2', 3)
    check(ok, 'a student steps alone')
    js(wide, "document.getElementById('livefollow').click(); 1")
    st, ok = wait_for(wide, lambda d: d.get('liveFollowing') == '1' and d.get('lessonStep') == '1', 3)
    check(ok, 'and follows the instructor again')
finally:
    try:
        cdp('Browser.close', timeout=5)
    except Exception:
        pass
    chrome.wait(timeout=20) if chrome.poll() is None else None
    if chrome.poll() is None:
        chrome.kill()
    if cls.poll() is None:
        key('q')
    try:
        cls.wait(timeout=20)
    except subprocess.TimeoutExpired:
        cls.kill()
rest = class_buf[0] + cls.stdout.read()
check(cls.returncode == 0, 'the class ended cleanly (status %s)' % cls.returncode)
csv = open(tally).read() if os.path.exists(tally) else ''
check(GUI or re.search(r'^1,"[^"]*",4,1,', csv, re.M) is not None, 'the tally CSV holds the guess: ' + csv.replace('\n', ' | ')[:200])
if failures:
    print(''.join(out_lines) + rest)
    sys.exit(1)

// A small "Live events" panel on GraphiQL's page (sandbox mode, with the
// development token): it follows `paymentEvents` over graphql-ws and lists the
// events as they arrive, whatever GraphiQL tab is open. GraphiQL ends a tab's
// subscription when the user switches tabs, so "create a charge in one tab,
// submit the OTP in another, watch the update arrive" needs a watcher that is
// not a tab. The page has no bundler: the script speaks the graphql-transport-ws
// protocol itself (connection_init, subscribe, next: three messages), and
// resumes after the last id it received when the socket drops (a restart).
const PANEL_STYLE = `
#live-events{position:fixed;right:12px;bottom:12px;z-index:1000;width:380px;max-height:45vh;display:flex;flex-direction:column;
  font:12px/1.4 system-ui,sans-serif;background:#fff;color:#1b1f24;border:1px solid #c8ccd1;border-radius:8px;box-shadow:0 4px 16px rgba(0,0,0,.15)}
#live-events header{display:flex;gap:8px;align-items:center;padding:6px 10px;border-bottom:1px solid #e3e5e8;font-weight:600}
#live-events header span{font-weight:400;color:#5b6470;margin-left:auto}
#live-events button{border:0;background:none;cursor:pointer;font:inherit;color:#5b6470}
#live-events ol{list-style:none;margin:0;padding:0;overflow:auto}
#live-events li{padding:4px 10px;border-bottom:1px solid #f0f1f3;font-family:ui-monospace,monospace}
#live-events li b{font-weight:600}
#live-events.collapsed ol{display:none}
`;

/** The panel's script: `token` is the development token, `path` where the gateway serves GraphQL. */
function panelScript(token: string): string {
  return `(() => {
  const token = ${JSON.stringify(token)};
  const root = document.createElement('section');
  root.id = 'live-events';
  root.setAttribute('aria-label', 'Live payment events');
  root.innerHTML = '<header>Live events <span id="live-events-status">connecting…</span><button id="live-events-toggle" title="Hide or show">–</button></header><ol id="live-events-list"></ol>';
  document.body.appendChild(root);
  const list = root.querySelector('ol');
  const status = root.querySelector('#live-events-status');
  root.querySelector('#live-events-toggle').onclick = () => root.classList.toggle('collapsed');
  let after = null;
  const url = location.href.replace(/^http/, 'ws').replace(/[?#].*$/, '');
  const query = 'subscription LiveEvents($after: ID) { paymentEvents(after: $after) { id kind reference receivedAt } }';
  function connect() {
    const ws = new WebSocket(url, 'graphql-transport-ws');
    ws.onopen = () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: 'Bearer ' + token } }));
    ws.onmessage = (message) => {
      const m = JSON.parse(message.data);
      if (m.type === 'connection_ack') {
        status.textContent = 'live: paymentEvents';
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables: { after } } }));
      } else if (m.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
      else if (m.type === 'next' && m.payload.data) {
        const e = m.payload.data.paymentEvents;
        after = e.id;
        const item = document.createElement('li');
        item.innerHTML = '<b></b> <span></span> <time></time>';
        item.children[0].textContent = e.kind;
        item.children[1].textContent = e.reference || '';
        item.children[2].textContent = new Date(e.receivedAt).toLocaleTimeString();
        list.prepend(item);
        while (list.children.length > 50) list.lastChild.remove();
      } else if ((m.type === 'next' && m.payload.errors) || m.type === 'error') {
        const errors = m.type === 'error' ? m.payload : m.payload.errors;
        status.textContent = (errors[0] && errors[0].message) || 'error';
        if (errors[0] && errors[0].extensions && errors[0].extensions.code === 'EVENT_CURSOR_EXPIRED') after = null;
      }
    };
    ws.onclose = () => {
      status.textContent = 'reconnecting…';
      setTimeout(connect, 2000);
    };
  }
  connect();
})();`;
}

/** GraphiQL's page with the panel; the page unchanged when there is no development token. */
export function withLivePanel(html: string, token: string | null): string {
  // The last one: GraphiQL's inlined bundle may hold the same text in its strings.
  const end = html.lastIndexOf('</body>');
  if (!token || end < 0) return html;
  // Nothing in a JWT can close the script element, but the "<" escape (inside string literals only) keeps it that way.
  const script = panelScript(token).replace(/</g, '\\u003c');
  return `${html.slice(0, end)}<style>${PANEL_STYLE}</style><script>${script}</script>${html.slice(end)}`;
}

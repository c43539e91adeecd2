// Talking to the server: JSON requests (errors thrown as their sentence) and the event stream.

export class ApiError extends Error {
  constructor(message, status, data) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

export async function api(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new ApiError("the workbench server does not answer (is `sim serve` still running?)", 0, null);
  }
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    const msg = (data && data.error) || `the server answered ${res.status}`;
    throw new ApiError(msg, res.status, data);
  }
  return data;
}

export const get = (url) => api("GET", url);
export const post = (url, body) => api("POST", url, body || {});
export const put = (url, body) => api("PUT", url, body);
export const del = (url) => api("DELETE", url);

export function runUrl(id) {
  const [scenario, rid] = String(id).split("/");
  return `${encodeURIComponent(scenario)}/${encodeURIComponent(rid)}`;
}

// The server-sent events: one stream per tab, reconnecting by itself.
export function events(onEvent, onState) {
  const es = new EventSource("/api/events");
  es.onmessage = (m) => {
    let ev;
    try {
      ev = JSON.parse(m.data);
    } catch (e) {
      return;
    }
    onEvent(ev);
  };
  es.onopen = () => onState && onState(true);
  es.onerror = () => onState && onState(false);
  return es;
}

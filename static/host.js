// Room set-up for hosts: pick a game, fill the form generated from its options' JSON schema.
import { html, useState, useEffect, errorText } from './ui.js';
import { t, gameName, gameDesc, optLabel, optHelp } from './i18n.js';
import { RulesPanel } from './rules.js';
import { api } from './api.js';
import { StakeAdvice } from './stakes.js';

/** What kind of input a schema property needs: bool, int (nullable or not), or null if unknown. */
export function fieldKind(prop) {
  if (prop.type === 'boolean') return { kind: 'bool' };
  if (prop.type === 'integer') return { kind: 'int', nullable: false, min: prop.minimum };
  if (Array.isArray(prop.anyOf)) {
    const int = prop.anyOf.find((x) => x.type === 'integer');
    const nul = prop.anyOf.some((x) => x.type === 'null');
    if (int) return { kind: 'int', nullable: nul, min: int.minimum };
  }
  return null;
}

/** The options object to send: only values that differ from the defaults. */
export function collectOptions(schema, values) {
  const out = {};
  for (const [key, prop] of Object.entries(schema.properties || {})) {
    const f = fieldKind(prop);
    const v = values[key];
    if (!f || v === undefined) continue;
    if (f.kind === 'bool') {
      if (v !== prop.default) out[key] = v;
    } else if (v !== '' && v !== null) {
      out[key] = Number(v);
    }
  }
  return out;
}

/**
 * The development field's text as stacked deals: null when empty, else the parsed list.
 * Throws an Error whose `key` names the translation of what is wrong.
 */
export function parseDeals(text) {
  if (!text.trim()) return null;
  let deals;
  try {
    deals = JSON.parse(text);
  } catch (e) {
    throw Object.assign(new Error(String(e.message || e)), { key: 'host.deals_bad_json' });
  }
  const isObject = (d) => d !== null && typeof d === 'object' && !Array.isArray(d);
  if (!Array.isArray(deals) || !deals.length || !deals.every(isObject)) {
    throw Object.assign(new Error('not a list of deal objects'), { key: 'host.deals_not_list' });
  }
  return deals;
}

export function OptionField({ name, prop, value, onChange }) {
  const f = fieldKind(prop);
  if (!f) return null;
  const id = 'opt-' + name;
  const helpId = id + '-help';
  if (f.kind === 'bool') {
    return html`<div class="opt opt-bool">
      <input type="checkbox" id=${id} name=${name} checked=${value === undefined ? !!prop.default : value}
             aria-describedby=${helpId} onChange=${(e) => onChange(name, e.target.checked)} />
      <label for=${id}>${optLabel(name)}</label>
      <p class="help" id=${helpId}>${optHelp(name)}</p>
    </div>`;
  }
  const placeholder = prop.default === null || prop.default === undefined
    ? t('host.default_auto') : t('host.default_value', { value: prop.default });
  return html`<div class="opt opt-int">
    <label for=${id}>${optLabel(name)}</label>
    <input type="number" id=${id} name=${name} min=${f.min} step="1" inputmode="numeric"
           value=${value ?? ''} placeholder=${placeholder} aria-describedby=${helpId}
           onInput=${(e) => onChange(name, e.target.value)} />
    <p class="help" id=${helpId}>${optHelp(name)}</p>
  </div>`;
}

export function HostForm() {
  const [games, setGames] = useState(null);
  const [key, setKey] = useState('standard');
  const [values, setValues] = useState({});
  const [seats, setSeats] = useState(2);
  const [stake, setStake] = useState(0);
  const [buyIn, setBuyIn] = useState(0);
  const [turnSeconds, setTurnSeconds] = useState(0);
  const [graceSeconds, setGraceSeconds] = useState(60);
  const [priv, setPriv] = useState(false);
  const [rated, setRated] = useState(false);
  const [spectatorChat, setSpectatorChat] = useState(false);
  // null: the server's default, on for a staked room (docs/security.md), until the host chooses
  const [onePerAddress, setOnePerAddress] = useState(null);
  const [bots, setBots] = useState(0); // computer players seated as the room opens
  const [level, setLevel] = useState('normal');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [stacked, setStacked] = useState(false); // the server takes stacked deals (development)
  const [dealsText, setDealsText] = useState('');
  const [dealsError, setDealsError] = useState(null);

  useEffect(() => {
    api('/api/games').then((d) => setGames(d.games), setError);
    api('/api/health').then((d) => setStacked(d.dev_stacked_decks === true), () => setStacked(false));
  }, []);

  if (!games) return html`<p class="muted">${error ? errorText(error) : t('app.loading')}</p>`;
  const game = games.find((g) => g.key === key) || games[0];
  const props = game.options_schema.properties || {};

  const pick = (k) => {
    const g = games.find((x) => x.key === k);
    setKey(k);
    setValues({});
    setSeats((n) => Math.min(Math.max(n, g.min_players), g.max_players));
    setError(null);
  };
  const setOpt = (name, v) => setValues((old) => ({ ...old, [name]: v }));

  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    setDealsError(null);
    let deals = null;
    if (stacked) {
      try {
        deals = parseDeals(dealsText);
      } catch (err) {
        setDealsError(err);
        return;
      }
    }
    setBusy(true);
    try {
      const body = { game: game.key, options: collectOptions(game.options_schema, values), seats: Number(seats),
                     stake: Number(stake) || 0, buy_in: Number(buyIn) || 0, turn_seconds: Number(turnSeconds) || 0,
                     grace_seconds: graceSeconds === '' ? 60 : Number(graceSeconds),
                     private: priv, spectator_chat: spectatorChat, rated, one_per_address: onePerAddress };
      if (deals) body.deals = deals;
      const room = await api('/api/rooms', { method: 'POST', body });
      const count = rated ? 0 : Math.min(Number(bots) || 0, Number(seats) - 1);
      if (count > 0) {  // the room exists now: a refusal here is shown in the waiting room
        await api(`/api/rooms/${room.id}/bots`, { method: 'POST', body: { count, level } }).catch(() => {});
      }
      location.hash = `#/room/${room.id}`;
    } catch (err) {
      setError(err);
    }
    setBusy(false);
  };

  return html`<form class="host" onSubmit=${submit} data-testid="host-form">
    <h1>${t('host.title')}</h1>
    <fieldset class="games">
      <legend>${t('host.choose_game')}</legend>
      <div class="game-grid">
        ${games.map((g) => html`<label class=${'game-card ' + (g.key === key ? 'active' : '')} key=${g.key}>
          <input type="radio" name="game" value=${g.key} checked=${g.key === key} onChange=${() => pick(g.key)} />
          <span class="game-name">${gameName(g.key)}</span>
          <span class="game-players">${t('host.players_range', { min: g.min_players, max: g.max_players })}</span>
          <span class="game-desc">${gameDesc(g.key)}</span>
        </label>`)}
      </div>
      <${RulesPanel} game=${game.key} />
    </fieldset>
    <div class="host-cols">
      <fieldset class="options">
        <legend>${t('host.options', { game: gameName(game.key) })}</legend>
        ${Object.keys(props).length === 0 && html`<p class="muted">${t('host.no_options')}</p>`}
        ${Object.entries(props).map(([name, prop]) => html`<${OptionField} key=${game.key + name}
            name=${name} prop=${prop} value=${values[name]} onChange=${setOpt} />`)}
      </fieldset>
      <fieldset class="table-settings">
        <legend>${t('host.table')}</legend>
        <label class="field">${t('host.seats')}
          <input type="number" name="seats" min=${game.min_players} max=${game.max_players} value=${seats}
                 onInput=${(e) => setSeats(e.target.value)} />
          <span class="help">${t('host.players_range', { min: game.min_players, max: game.max_players })}</span></label>
        <label class="field">${t('host.bots')}
          <input type="number" name="bots" min="0" max=${Math.max(Number(seats) - 1, 0)} value=${bots}
                 disabled=${rated} onInput=${(e) => setBots(e.target.value)} />
          <span class="help">${t('host.bots_help')}</span></label>
        <label class="field">${t('bots.level')}
          <select name="bot_level" value=${level} disabled=${rated || !(Number(bots) > 0)}
                  onChange=${(e) => setLevel(e.target.value)}>
            ${['easy', 'normal', 'hard'].map((l) => html`<option value=${l}>${t('bots.' + l)}</option>`)}
          </select></label>
        <label class="field">${t('host.stake')}
          <input type="number" name="stake" min="0" value=${stake} onInput=${(e) => setStake(e.target.value)} />
          <span class="help">${t('host.stake_help')}</span></label>
        <label class="field">${t('host.buy_in')}
          <input type="number" name="buy_in" min="0" value=${buyIn} onInput=${(e) => setBuyIn(e.target.value)} />
          <span class="help">${t('host.buy_in_help')}</span></label>
        <${StakeAdvice} stake=${stake} buyIn=${buyIn} seats=${seats} onPropose=${setBuyIn} />
        <label class="field">${t('host.turn_seconds')}
          <input type="number" name="turn_seconds" min="0" value=${turnSeconds}
                 onInput=${(e) => setTurnSeconds(e.target.value)} />
          <span class="help">${t('host.turn_seconds_help')}</span></label>
        <label class="field">${t('host.grace_seconds')}
          <input type="number" name="grace_seconds" min="0" max="3600" value=${graceSeconds}
                 onInput=${(e) => setGraceSeconds(e.target.value)} />
          <span class="help">${t('host.grace_seconds_help')}</span></label>
        <div class="opt opt-bool">
          <input type="checkbox" id="private" name="private" checked=${priv} onChange=${(e) => setPriv(e.target.checked)} />
          <label for="private">${t('host.private')}</label>
          <p class="help">${t('host.private_help')}</p>
        </div>
        <div class="opt opt-bool">
          <input type="checkbox" id="rated" name="rated" checked=${rated} onChange=${(e) => setRated(e.target.checked)} />
          <label for="rated">${t('board.rated_room')}</label>
          <p class="help">${t('board.rated_room_help')}</p>
        </div>
        <div class="opt opt-bool">
          <input type="checkbox" id="spectator_chat" name="spectator_chat" checked=${spectatorChat}
                 onChange=${(e) => setSpectatorChat(e.target.checked)} />
          <label for="spectator_chat">${t('host.spectator_chat')}</label>
          <p class="help">${t('host.spectator_chat_help')}</p>
        </div>
        <div class="opt opt-bool">
          <input type="checkbox" id="one_per_address" name="one_per_address"
                 checked=${onePerAddress ?? (Number(stake) > 0)} onChange=${(e) => setOnePerAddress(e.target.checked)} />
          <label for="one_per_address">${t('host.one_per_address')}</label>
          <p class="help">${t('host.one_per_address_help')}</p>
        </div>
        ${stacked && html`<div class="field dev-deals">
          <label for="deals">${t('host.deals')}</label>
          <textarea id="deals" name="deals" rows="4" spellcheck="false" data-testid="deals"
                    aria-describedby="deals-help" aria-invalid=${dealsError ? 'true' : 'false'}
                    placeholder=${t('host.deals_placeholder')} value=${dealsText}
                    onInput=${(e) => { setDealsText(e.target.value); setDealsError(null); }}></textarea>
          <span class="help" id="deals-help">${t('host.deals_help')}</span>
          ${dealsError && html`<p class="form-error" role="alert" data-testid="deals-error">
            ${t(dealsError.key)}${dealsError.key === 'host.deals_bad_json' ? ` — ${dealsError.message}` : ''}</p>`}
        </div>`}
        ${error && html`<p class="form-error" role="alert" data-testid="host-error">${errorText(error)}</p>`}
        <button class="btn primary wide" type="submit" disabled=${busy} data-testid="create-room">${t('host.create')}</button>
      </fieldset>
    </div>
  </form>`;
}

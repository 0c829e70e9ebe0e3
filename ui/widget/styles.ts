// The widget's stylesheet, scoped by its shadow root. Colours meet WCAG AA contrast on white; the
// focus ring keeps at least 3:1 against whatever it is drawn on (blue on white, white on blue, and
// a dark ring with a white halo around the launcher, which sits on the host page's colours).
export const STYLES = `
:host([data-side=left]) .launcher,:host([data-side=left]) .window{left:20px;right:auto}
.greeting{margin:8px 12px 0;padding:8px 10px;border-radius:10px;background:#f3f4f6;color:#1f2933;font-size:14px}
:host{all:initial;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933}
*{box-sizing:border-box}
[hidden]{display:none!important}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
button,input{font:inherit}
:focus-visible{outline:3px solid var(--c,#1d4ed8);outline-offset:2px}
.head :focus-visible{outline-color:#fff}
.user .bubble :focus-visible{outline-color:#111827}
.launcher:focus-visible{outline-color:#111827;box-shadow:0 0 0 2px #fff,0 4px 14px rgba(0,0,0,.25)}
.launcher{position:fixed;right:20px;bottom:20px;z-index:2147483000;width:56px;height:56px;border:0;border-radius:50%;background:var(--c,#1d4ed8);color:#fff;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center}
.badge{position:absolute;top:-2px;right:-2px;min-width:20px;height:20px;padding:0 5px;border-radius:10px;background:#b91c1c;color:#fff;font-size:12px;line-height:20px;text-align:center}
.window{position:fixed;right:20px;bottom:88px;z-index:2147483000;width:370px;max-width:calc(100vw - 24px);height:560px;max-height:calc(100vh - 110px);display:flex;flex-direction:column;background:#fff;border-radius:14px;box-shadow:0 10px 36px rgba(0,0,0,.28);overflow:hidden}
.head{display:flex;align-items:center;gap:10px;padding:10px 12px;background:var(--c,#1d4ed8);color:#fff}
.head h2{flex:1;margin:0;font-size:16px;font-weight:600}
.avatar{flex:none;width:32px;height:32px;border-radius:50%;background:#fff;object-fit:cover}
.initials{display:flex;align-items:center;justify-content:center;color:var(--c,#1d4ed8);font-weight:600;font-size:13px}
.close{border:0;background:transparent;color:#fff;font-size:26px;line-height:1;cursor:pointer;padding:0 6px}
.scroller{flex:1;overflow-y:auto;padding:12px;background:#f8fafc}
.log{display:flex;flex-direction:column;gap:8px}
.row{display:flex;flex-direction:column;align-items:flex-start;max-width:100%}
.row.user{align-items:flex-end}
.bubble{max-width:85%;padding:8px 12px;border-radius:14px 14px 14px 4px;background:#e5e7eb;white-space:pre-wrap;overflow-wrap:anywhere}
.user .bubble{background:var(--c,#1d4ed8);color:#fff;border-radius:14px 14px 4px 14px}
.user .bubble a{color:#fff}
.operator .bubble{background:#fef3c7}
.who{display:flex;align-items:center;gap:5px;font-size:12px;color:#92400e;margin:0 0 2px 4px}
.face{object-fit:cover;display:inline-flex;align-items:center;justify-content:center;width:24px;height:24px;border-radius:50%;background:#92400e;color:#fff;font-size:10px;font-weight:600}
.bubble ul,.bubble ol{margin:2px 0;padding-inline-start:20px;white-space:normal}
.bubble li{white-space:pre-wrap}
.grouped{margin-top:-4px}
.bot.grouped .bubble,.operator.grouped .bubble{border-top-left-radius:4px}
.user.grouped .bubble{border-top-right-radius:4px}
.at{font-size:11px;color:#4b5563;margin:2px 4px 0}.at::after{content:attr(data-t)}
.notice{align-items:center;font-size:13px;color:#4b5563;text-align:center}
a{color:var(--c,#1d4ed8)}
.actions{display:flex;flex-wrap:wrap;gap:6px;margin-top:6px}
.actions.used,.buttons-only:has(.used){display:none}
.btn{display:inline-block;padding:6px 12px;border:1px solid var(--c,#1d4ed8);border-radius:16px;background:#fff;color:var(--c,#1d4ed8);cursor:pointer;text-decoration:none;font-size:14px}
.btn:hover{background:#eff6ff}
.btn:disabled{border-color:#9ca3af;color:#4b5563;background:#f3f4f6;cursor:default}
.pending .bubble{opacity:.7}
.wait{font-size:12px;color:#4b5563;margin-top:2px}
.offline{padding:6px 12px;background:#fef3c7;color:#78350f;font-size:13px;text-align:center}
.btn.link::after{content:" ↗"}
.carousel{display:flex;gap:10px;max-width:100%;overflow-x:auto;padding:2px 2px 8px;scroll-snap-type:x mandatory}
.card{flex:0 0 210px;scroll-snap-align:start;background:#fff;border:1px solid #d1d5db;border-radius:10px;overflow:hidden;display:flex;flex-direction:column}
.card img,.card .placeholder{width:100%;height:120px;object-fit:cover;background:#e5e7eb;border-radius:0}
.placeholder{display:flex;align-items:center;justify-content:center;min-height:90px;min-width:160px;padding:8px;background:#e5e7eb;color:#374151;font-size:13px;border-radius:10px}
.card-body{padding:8px 10px 0}
.card-body p{margin:2px 0 0;font-size:13px;color:#4b5563}
.card .actions{padding:0 10px 10px}
.media{margin:0;max-width:85%}
.media img,.media video{display:block;max-width:100%;border-radius:10px}
.file::before{content:"";display:inline-block;width:10px;height:13px;margin-right:6px;border:2px solid currentColor;border-radius:2px;vertical-align:-2px}
.media figcaption{font-size:13px;color:#4b5563;margin-top:2px}
.typing,.streaming{display:flex;margin-top:8px}
.op-typing{margin-top:8px;font-size:13px;color:#4b5563;text-align:center;font-style:italic}
.typing .bubble{display:flex;gap:4px;padding:12px 14px}
.typing i{width:8px;height:8px;border-radius:50%;background:#9ca3af;animation:cq-blink 1.2s infinite}
.typing i:nth-of-type(2){animation-delay:.2s}.typing i:nth-of-type(3){animation-delay:.4s}
@keyframes cq-blink{0%,80%,100%{opacity:.3}40%{opacity:1}}
@media (prefers-reduced-motion:reduce){.typing i{animation:none}}
.composer{display:flex;gap:8px;padding:10px;border-top:1px solid #e5e7eb;background:#fff}
.composer input{flex:1;min-width:0;padding:8px 12px;border:1px solid #9ca3af;border-radius:18px}
.composer input:disabled{background:#f3f4f6}
.send{border:0;border-radius:50%;width:38px;height:38px;background:var(--c,#1d4ed8);color:#fff;cursor:pointer}
.send:disabled{background:#9ca3af;cursor:default}
@media (max-width:600px),(pointer:coarse){.composer input{font-size:16px}}
@media (max-width:480px){
.window,:host([data-side=left]) .window{inset:0;width:100%;max-width:none;height:100%;max-height:none;border-radius:0}
.launcher.is-open{display:none}
}
`;

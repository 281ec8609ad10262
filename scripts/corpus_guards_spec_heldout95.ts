/**
 * Ninety-fifth held-out batch of the guard-removal corpus: removals written by reading the security
 * code of JavaScript/TypeScript projects not otherwise used by the corpus (boardgame.io,
 * socketcluster-server, ag-auth, webdav-server, zone-mta, maildev, bottender, mosca, an Express
 * REST starter, redbird, xmpp.js, faye), chosen the way a careless refactor or an attacker would
 * weaken them, before any measurement. Reversed fixes were picked by commit message or advisory
 * only.
 *
 * @module
 */
import type { GuardEdit, ReversedFix } from "./corpus_guards_spec.ts";
import { editMaker } from "./corpus_guards_edit.ts";

const H95 = "heldout95" as const;
const BG = "boardgameio/boardgame.io";
const BGA = "src/server/auth.ts";
const BGI = "src/server/api.ts";
const BGM = "src/master/master.ts";
const SC = "SocketCluster/socketcluster-server";
const SCS = "server.js";
const SCK = "serversocket.js";
const AG = "SocketCluster/ag-auth";
const WD = "OpenMarshal/npm-WebDAV-Server";
const ZM = "zone-eu/zone-mta";
const MD = "maildev/maildev";
const BT = "Yoctol/bottender";
const BTF = "packages/bottender/src/messenger/FacebookBaseConnector.ts";
const BTS = "packages/bottender/src/slack/SlackConnector.ts";
const MO = "mcollina/mosca";
const EX = "kunalkapadia/express-mongoose-es6-rest-api";
const RB = "OptimalBits/redbird";
const XM = "xmppjs/xmpp.js";
const FY = "faye/faye";
const FYS = "src/protocol/server.js";

/** One held-out edit: `find` in `path` of `repo` becomes `replace`. */
const E = editMaker(H95);

/** The ninety-fifth held-out batch of edits (split `heldout95`). */
export const EDITS_HELDOUT95: GuardEdit[] = [
  // ---- boardgame.io (TS)
  E(
    "bg-missing-player-metadata-ok",
    BG,
    BGA,
    "credential",
    "  if (!playerMetadata) return false;\n",
    "  if (!playerMetadata) return true;\n",
  ),
  E(
    "bg-auth-only-when-all-seated",
    BG,
    BGA,
    "authn-branch",
    "  const hasCredentials = Object.values(players).some(\n",
    "  const hasCredentials = Object.values(players).every(\n",
  ),
  E(
    "bg-update-player-no-cred-check",
    BG,
    BGI,
    "authz",
    "    if (!isAuthorized) {\n      ctx.throw(403, 'Invalid credentials');\n    }\n\n    if (newName) {\n",
    "    if (newName) {\n",
  ),
  E(
    "bg-play-again-logs-only",
    BG,
    BGI,
    "authz",
    "    if (!isAuthorized) {\n      ctx.throw(403, 'Invalid credentials');\n    }\n\n    // Check if nextMatch",
    "    if (!isAuthorized) {\n      console.warn('playAgain with invalid credentials', playerID);\n    }\n\n    // Check if nextMatch",
  ),
  E(
    "bg-leave-slot-no-auth",
    BG,
    BGI,
    "authz",
    "    const metadata = await fetchMetadataForGame(ctx, matchID, gameName);\n    await authenticatePlayer(ctx, metadata, playerID, credentials);\n\n    delete metadata.players[playerID].name;\n",
    "    const metadata = await fetchMetadataForGame(ctx, matchID, gameName);\n\n    delete metadata.players[playerID].name;\n",
  ),
  E(
    "bg-update-skip-when-no-credentials",
    BG,
    BGM,
    "authn-branch",
    "    if (this.auth) {\n      const isAuthentic = await this.auth.authenticateCredentials({\n        playerID,\n        credentials: credAction.payload.credentials,\n",
    "    if (this.auth && credAction.payload.credentials) {\n      const isAuthentic = await this.auth.authenticateCredentials({\n        playerID,\n        credentials: credAction.payload.credentials,\n",
  ),
  E(
    "bg-non-public-action-allowed",
    BG,
    BGM,
    "authz",
    "    if (!isPublicClientAction(credAction)) {\n      logging.error(`unauthorized action type: ${credAction.type}`);\n      return { error: 'unauthorized action' };\n    }\n\n",
    "",
  ),
  E(
    "bg-sync-spectator-path-for-all",
    BG,
    BGM,
    "authn-branch",
    "    if (this.auth && playerID !== undefined && playerID !== null) {\n      const isAuthentic = await this.auth.authenticateCredentials({\n        playerID,\n        credentials,\n        metadata,\n      });\n      if (!isAuthentic) {\n        return { error: 'unauthorized' };\n      }\n    }\n\n    // If the game doesn't exist",
    "    // If the game doesn't exist",
  ),
  // ---- socketcluster-server (JS)
  E(
    "sc-expiry-units",
    SC,
    SCK,
    "token",
    "    let expiryMilliseconds = token.exp * 1000;\n",
    "    let expiryMilliseconds = token.exp * 1000 * 1000;\n",
  ),
  E(
    "sc-expired-token-not-bad",
    SC,
    SCK,
    "token",
    "      let authError = new AuthTokenExpiredError(err.message, err.expiredAt);\n      authError.isBadToken = true;\n",
    "      let authError = new AuthTokenExpiredError(err.message, err.expiredAt);\n      authError.isBadToken = false;\n",
  ),
  E(
    "sc-verify-algorithms-dropped",
    SC,
    SCS,
    "token",
    "  this.defaultVerificationOptions = {};\n  if (opts.authVerifyAlgorithms != null) {\n    this.defaultVerificationOptions.algorithms = opts.authVerifyAlgorithms;\n  } else if (opts.authAlgorithm != null) {\n    this.defaultVerificationOptions.algorithms = [opts.authAlgorithm];\n  }\n",
    "  this.defaultVerificationOptions = {};\n",
  ),
  E(
    "sc-inbound-expiry-not-checked",
    SC,
    SCK,
    "token",
    "    let tokenExpiredError = this._processAuthTokenExpiry();\n    if (tokenExpiredError) {\n      action.authTokenExpiredError = tokenExpiredError;\n    }\n\n",
    "",
  ),
  E(
    "sc-ping-no-deauth",
    SC,
    SCK,
    "token",
    "      if (this.isAuthTokenExpired(token)) {\n        this.deauthenticate();\n      }\n      continue;\n",
    "      continue;\n",
  ),
  E(
    "sc-middleware-reject-keeps-auth",
    SC,
    SCK,
    "authn-branch",
    "  } catch (error) {\n    this.authToken = null;\n    this.authState = this.UNAUTHENTICATED;\n\n    if (error.isBadToken) {\n",
    "  } catch (error) {\n    if (error.isBadToken) {\n",
  ),
  E(
    "sc-handshake-middleware-warn",
    SC,
    SCS,
    "authn-branch",
    "    middlewareHandshakeStream.close();\n    callback(false, 401, typeof error === 'string' ? error : error.message);\n    return;\n",
    "    this.emitWarning(error);\n",
  ),
  E(
    "sc-bad-origin-accepted",
    SC,
    SCS,
    "authz",
    "    } catch (e) {}\n",
    "    } catch (e) {\n      ok = true;\n    }\n",
  ),
  E(
    "sc-client-publish-always",
    SC,
    SCK,
    "authz",
    "      if (!this.server.allowClientPublish) {\n        let error = new InvalidActionError('Client publish feature is disabled');\n        this.emitError(error);\n\n        if (isRPC) {\n          let request = this.createRequest(this, packet.cid, eventName, packet.data);\n          request.error(error);\n        }\n        return;\n      }\n",
    "",
  ),
  E(
    "sc-fixed-auth-key",
    SC,
    SCS,
    "secure-default",
    "      opts.authKey = crypto.randomBytes(32).toString('hex');\n",
    "      opts.authKey = 'socketcluster-auth-key';\n",
  ),
  // ---- ag-auth (JS)
  E(
    "ag-decode-not-verify",
    AG,
    "index.js",
    "token",
    "      jwt.verify(signedToken || '', key, jwtOptions, (err, token) => {\n        if (err) {\n          reject(err);\n          return;\n        }\n        resolve(token);\n      });\n",
    "      resolve(jwt.decode(signedToken || ''));\n",
  ),
  E(
    "ag-expired-tolerated",
    AG,
    "index.js",
    "token",
    "        if (err) {\n          reject(err);\n          return;\n        }\n        resolve(token);\n",
    "        if (err && err.name !== 'TokenExpiredError') {\n          reject(err);\n          return;\n        }\n        resolve(token || jwt.decode(signedToken));\n",
  ),
  E(
    "ag-algorithms-option-removed",
    AG,
    "index.js",
    "token",
    "  let jwtOptions = Object.assign({}, options);\n  delete jwtOptions.socket;\n",
    "  let jwtOptions = Object.assign({}, options);\n  delete jwtOptions.socket;\n  delete jwtOptions.algorithms;\n",
  ),
  // ---- webdav-server (TS)
  E(
    "wd-password-not-compared",
    WD,
    "src/user/v2/simple/SimpleUserManager.ts",
    "credential",
    "            if(user.password === password)\n                callback(null, user);\n            else\n                callback(Errors.UserNotFound);\n",
    "            callback(null, user);\n",
  ),
  E(
    "wd-digest-prefix-match",
    WD,
    "src/user/v2/authentication/HTTPDigestAuthentication.ts",
    "credential",
    "            if(result.toLowerCase() === authProps.response.toLowerCase())\n",
    "            if(result.toLowerCase().indexOf(authProps.response.toLowerCase()) === 0)\n",
  ),
  E(
    "wd-digest-uri-mismatch-ignored",
    WD,
    "src/user/v2/authentication/HTTPDigestAuthentication.ts",
    "authn-branch",
    "                if(uriMismatch)\n                {\n                    return onError(Errors.BadAuthentication);\n                }\n",
    "",
  ),
  E(
    "wd-any-right-grants-all",
    WD,
    "src/user/v2/privilege/SimplePathPrivilegeManager.ts",
    "authz",
    "        const can = !!rights && rights.some((r) => r === 'all' || r === privilege);\n",
    "        const can = !!rights && rights.length > 0;\n",
  ),
  E(
    "wd-child-grant-applies-to-parent",
    WD,
    "src/user/v2/privilege/SimplePathPrivilegeManager.ts",
    "authz",
    "            if(startsWith(path, superPath))\n",
    "            if(startsWith(path, superPath) || startsWith(superPath, path))\n",
  ),
  E(
    "wd-default-user-passes-required-auth",
    WD,
    "src/server/v2/RequestContext.ts",
    "authn-branch",
    "                if(server.options.requireAuthentification && (!user || user.isDefaultUser || e === Errors.UserNotFound))\n",
    "                if(server.options.requireAuthentification && (!user || e === Errors.UserNotFound))\n",
  ),
  E(
    "wd-unlock-other-users-lock",
    WD,
    "src/server/v2/commands/Unlock.ts",
    "authz",
    "                                if(!!lock.userUid && lock.userUid !== ctx.user.uid)\n                                {\n                                    ctx.setCode(HTTPCodes.Forbidden);\n                                    return callback();\n                                }\n\n",
    "",
  ),
  // ---- zone-mta (JS)
  E(
    "zm-http-auth-error-passes",
    ZM,
    "plugins/core/http-auth.js",
    "authn-branch",
    "            err.responseCode = 535;\n            return next(err);\n",
    "            err.responseCode = 535;\n            app.logger.info('HTTPAUTH', 'auth backend error %s', err.message);\n            return next();\n",
  ),
  E(
    "zm-empty-password-allowed",
    ZM,
    "lib/smtp-interface.js",
    "credential",
    "                            // password is required unless it is XCLIENT\n                            (!auth.password && auth.method !== 'XCLIENT') ||\n",
    "",
  ),
  E(
    "zm-auth-hook-error-ignored",
    ZM,
    "lib/smtp-interface.js",
    "authn-branch",
    "                                return setImmediate(() => next(err));\n",
    "                                // return setImmediate(() => next(err));\n",
  ),
  E(
    "zm-test-auth-user-only",
    ZM,
    "lib/api-server.js",
    "credential",
    "            if (req.username !== config.api.user || req.authorization.basic.password !== config.api.pass) {\n",
    "            if (req.username !== config.api.user) {\n",
  ),
  E(
    "zm-mx-cert-not-verified",
    ZM,
    "lib/tls-retry.js",
    "secure-default",
    "        rejectUnauthorized: enforceTLS,\n",
    "        rejectUnauthorized: false,\n",
  ),
  E(
    "zm-mta-sts-ignore-tls-kept",
    ZM,
    "lib/sender.js",
    "secure-default",
    "                if (enforceTLS && ignoreTLS) {\n                    ignoreTLS = false;\n                }\n",
    "",
  ),
  E(
    "zm-min-tls-version-low",
    ZM,
    "lib/tls-retry.js",
    "secure-default",
    "        minVersion: enforceTLS ? 'TLSv1.2' : 'TLSv1'\n",
    "        minVersion: 'TLSv1'\n",
  ),
  // ---- maildev (TS)
  E(
    "md-smtp-username-only",
    MD,
    "packages/smtp/src/auth.ts",
    "credential",
    "    if (auth.username !== credentials.user || auth.password !== credentials.pass) {\n",
    "    if (auth.username !== credentials.user) {\n",
  ),
  E(
    "md-no-auth-accepts",
    MD,
    "packages/smtp/src/auth.ts",
    "authn-branch",
    "    callback(new Error('Authentication not enabled'))\n",
    "    callback(null, { user: _auth.username ?? 'anonymous' })\n",
  ),
  E(
    "md-health-path-substring",
    MD,
    "packages/api/src/server.ts",
    "authz",
    "      if (request.url.split('?')[0] === healthPath) {\n",
    "      if (request.url.includes('/api/healthz')) {\n",
  ),
  E(
    "md-basic-and-instead-of-or",
    MD,
    "packages/api/src/server.ts",
    "credential",
    "      if (username !== auth.user || password !== auth.pass) {\n",
    "      if (username !== auth.user && password !== auth.pass) {\n",
  ),
  // ---- bottender (TS)
  E(
    "bt-line-signature-string-compare",
    BT,
    "packages/bottender/src/line/LineConnector.ts",
    "credential",
    "    return crypto.timingSafeEqual(bufferFromSignature, hashBufferFromBody);\n",
    "    return bufferFromSignature.toString() === hashBufferFromBody.toString();\n",
  ),
  E(
    "bt-fb-no-sha1-ok",
    BT,
    BTF,
    "credential",
    "    if (!sha1) return false;\n",
    "    if (!sha1) return true;\n",
  ),
  E(
    "bt-fb-missing-signature-passes",
    BT,
    BTF,
    "authn-branch",
    "      headers['x-hub-signature'] &&\n      this.verifySignature(rawBody, headers['x-hub-signature'])\n",
    "      !headers['x-hub-signature'] ||\n      this.verifySignature(rawBody, headers['x-hub-signature'])\n",
  ),
  E(
    "bt-fb-verify-token-dropped",
    BT,
    BTF,
    "token",
    "        query['hub.mode'] === 'subscribe' &&\n        query['hub.verify_token'] === this.verifyToken\n",
    "        query['hub.mode'] === 'subscribe'\n",
  ),
  E(
    "bt-slack-timestamp-window-removed",
    BT,
    BTS,
    "token",
    "    if (\n      Math.abs(Date.now() - Number(timestamp) * 1000) >\n      FIVE_MINUTES_IN_MILLISECONDS\n    ) {\n      return false;\n    }\n",
    "",
  ),
  E(
    "bt-slack-missing-token-passes",
    BT,
    BTS,
    "token",
    "    if (this._verificationToken && !this.verifySignature(token)) {\n",
    "    if (this._verificationToken && token && !this.verifySignature(token)) {\n",
  ),
  E(
    "bt-viber-get-or-unsigned",
    BT,
    "packages/bottender/src/viber/ViberConnector.ts",
    "authn-branch",
    "      (headers['x-viber-content-signature'] &&\n        this.verifySignature(rawBody, headers['x-viber-content-signature']))\n",
    "      !headers['x-viber-content-signature'] ||\n      this.verifySignature(rawBody, headers['x-viber-content-signature'])\n",
  ),
  // ---- mosca (JS)
  E(
    "mo-hash-not-compared",
    MO,
    "lib/authorizer.js",
    "credential",
    "    var success = (user.hash === hash);\n",
    "    var success = !!hash;\n",
  ),
  E(
    "mo-denied-verdict-continues",
    MO,
    "lib/client.js",
    "authn-branch",
    '    if (!verdict) {\n      logger.info({ username: packet.username }, "authentication denied");\n      client.connack({\n        returnCode: 5\n      });\n      client.stream.end();\n      return;\n    }\n\n',
    "",
  ),
  E(
    "mo-subscribe-denied-logged",
    MO,
    "lib/client.js",
    "authz",
    '  if (!success) {\n    this.logger.info({ topic: s.topic }, "subscribe not authorized");\n    cb(null, false);\n    return;\n  }\n',
    '  if (!success) {\n    this.logger.info({ topic: s.topic }, "subscribe not authorized");\n  }\n',
  ),
  E(
    "mo-publish-only-err",
    MO,
    "lib/client.js",
    "authz",
    "  if (err || !success) {\n",
    "  if (err) {\n",
  ),
  E(
    "mo-forward-unchecked",
    MO,
    "lib/client.js",
    "authz",
    '      if (!authorized) {\n        that.logger.warn(packet, "Unauthorized Forward");\n        return;\n      }\n\n',
    "",
  ),
  // ---- express-mongoose-es6-rest-api (JS)
  E(
    "ex-random-number-unprotected",
    EX,
    "server/auth/auth.route.js",
    "authz",
    "  .get(expressJwt({ secret: config.jwtSecret }), authCtrl.getRandomNumber);\n",
    "  .get(authCtrl.getRandomNumber);\n",
  ),
  E(
    "ex-login-username-only",
    EX,
    "server/auth/auth.controller.js",
    "credential",
    "  if (req.body.username === user.username && req.body.password === user.password) {\n",
    "  if (req.body.username === user.username) {\n",
  ),
  E(
    "ex-helmet-off",
    EX,
    "config/express.js",
    "secure-default",
    "app.use(helmet());\n",
    "// app.use(helmet());\n",
  ),
  // ---- redbird (TS)
  E(
    "rb-upstream-verify-opt-in",
    RB,
    "lib/proxy.ts",
    "secure-default",
    "        secure: opts.secure !== false,\n",
    "        secure: opts.secure === true,\n",
  ),
  E(
    "rb-ssl-redirect-opt-in",
    RB,
    "lib/proxy.ts",
    "secure-default",
    "    sslRedirect: opts.ssl && opts.ssl.redirect !== false,\n",
    "    sslRedirect: opts.ssl && opts.ssl.redirect === true,\n",
  ),
  // ---- xmpp.js (JS)
  E(
    "xm-starttls-no-verify",
    XM,
    "packages/starttls/index.js",
    "secure-default",
    "    const tlsSocket = await upgrade(socket, { host: options.domain });\n",
    "    const tlsSocket = await upgrade(socket, {\n      host: options.domain,\n      rejectUnauthorized: false,\n    });\n",
  ),
  E(
    "xm-starttls-failure-plaintext",
    XM,
    "packages/starttls/index.js",
    "secure-default",
    "    await negotiate(entity);\n",
    "    try {\n      await negotiate(entity);\n    } catch {\n      return next();\n    }\n",
  ),
  E(
    "xm-plain-over-insecure",
    XM,
    "packages/client/lib/createOnAuthenticate.js",
    "secure-default",
    "  return mechanisms.find((mechanism) => mechanism !== PLAIN);\n",
    "  return mechanisms[0];\n",
  ),
  E(
    "xm-secure-unless-false",
    XM,
    "packages/connection/index.js",
    "secure-default",
    "    return this.socket?.secure === true;\n",
    "    return this.socket?.secure !== false;\n",
  ),
  // ---- faye (JS)
  E(
    "fy-meta-subscribe-allowed",
    FY,
    FYS,
    "authz",
    "        if (!local && !Channel.isSubscribable(channel)) response.error = Error.channelForbidden(channel);\n        if (!Channel.isValid(channel))                  response.error = Error.channelInvalid(channel);\n\n        if (response.error) break;\n        this._engine.subscribe(clientId, channel);\n",
    "        if (!Channel.isValid(channel))                  response.error = Error.channelInvalid(channel);\n\n        if (response.error) break;\n        this._engine.subscribe(clientId, channel);\n",
  ),
  E(
    "fy-connect-unknown-client",
    FY,
    FYS,
    "token",
    "      if (!exists)         response.error = Error.clientUnknown(clientId);\n",
    "",
  ),
  E(
    "fy-subscribe-unknown-client",
    FY,
    FYS,
    "authn-branch",
    "      if (!exists)               response.error = Error.clientUnknown(clientId);\n      if (!clientId)             response.error = Error.parameterMissing('clientId');\n      if (!message.subscription) response.error = Error.parameterMissing('subscription');\n\n      response.subscription = message.subscription || [];\n\n      for (var i = 0, n = subscription.length; i < n; i++) {\n        channel = subscription[i];\n\n        if (response.error) break;\n        if (!local && !Channel.isSubscribable(channel)) response.error = Error.channelForbidden(channel);\n        if (!Channel.isValid(channel))                  response.error = Error.channelInvalid(channel);\n\n        if (response.error) break;\n        this._engine.subscribe(",
    "      // if (!exists)               response.error = Error.clientUnknown(clientId);\n      if (!clientId)             response.error = Error.parameterMissing('clientId');\n      if (!message.subscription) response.error = Error.parameterMissing('subscription');\n\n      response.subscription = message.subscription || [];\n\n      for (var i = 0, n = subscription.length; i < n; i++) {\n        channel = subscription[i];\n\n        if (response.error) break;\n        if (!local && !Channel.isSubscribable(channel)) response.error = Error.channelForbidden(channel);\n        if (!Channel.isValid(channel))                  response.error = Error.channelInvalid(channel);\n\n        if (response.error) break;\n        this._engine.subscribe(",
  ),
];

/** Reversed real security fixes of the ninety-fifth batch (split `history95`), chosen by message only. */
export const REVERSED_FIXES_HISTORY95: ReversedFix[] = [
  {
    id: "bg-socketio-transport-security",
    repo: BG,
    commit: "3d614b88",
    path: "src/server/transport/socketio.ts",
    cls: "authz",
    note: "fix: improve security of socket.io transport layer (#894)",
    split: "history95",
  },
  {
    id: "xm-no-plain-on-insecure",
    repo: XM,
    commit: "f9eba3df",
    path: "packages/client/lib/createOnAuthenticate.js",
    cls: "secure-default",
    note: "client: do not allow PLAIN on insecure connection",
    split: "history95",
  },
  {
    id: "xm-tls-verify-certificates",
    repo: XM,
    commit: "c0ec39e2",
    path: "packages/tls/lib/Connection.js",
    cls: "secure-default",
    note: "fix(tls): verify certificates",
    split: "history95",
  },
  {
    id: "fy-strict-meta-channel",
    repo: FY,
    commit: "4e293c7",
    path: "src/protocol/server.js",
    cls: "authz",
    note: "CVE-2020-11020: strict meta channel recognition in server",
    split: "history95",
  },
  {
    id: "bt-line-timing-safe-signature",
    repo: BT,
    commit: "5ac968ad",
    path: "src/bot/LineConnector.js",
    cls: "credential",
    note: "use timingSafeEqual to validate signature (#79)",
    split: "history95",
  },
  {
    id: "bt-messenger-timing-safe-signature",
    repo: BT,
    commit: "5ac968ad",
    path: "src/bot/MessengerConnector.js",
    cls: "credential",
    note: "use timingSafeEqual to validate signature (#79)",
    split: "history95",
  },
  {
    id: "mo-authorize-will-topics",
    repo: MO,
    commit: "2468eaf",
    path: "lib/client.js",
    cls: "authz",
    note: "fixed authorize will topics",
    split: "history95",
  },
  {
    id: "zm-ignore-tls-default-false",
    repo: ZM,
    commit: "336e835",
    path: "lib/sender.js",
    cls: "secure-default",
    note: "fix(tls-options): retrieve ignoreTLS from sending zone, or default to false (#365)",
    split: "history95",
  },
];

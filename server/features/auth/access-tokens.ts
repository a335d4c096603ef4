import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

/** The only algorithm we sign with and the only one we accept: no `alg` confusion. */
const ALGORITHM = 'HS256';
const TOKEN_TYPE = 'at+jwt';

export interface AccessTokenClaims {
  userId: string;
  tenantId: string;
  jti: string;
  expiresAt: Date;
  /**
   * How the user proved who they are (RFC 8176 `amr` values): `pwd` alone, or with `otp` (a TOTP or
   * recovery code) or `hwk` (a passkey). A tenant that requires a second factor refuses a `pwd`-only token.
   */
  amr?: readonly AuthenticationMethod[];
  /** Set on a token that may only enrol a second factor (a member of a tenant that requires one). */
  scope?: typeof SECOND_FACTOR_ENROLMENT_SCOPE;
}

export type AuthenticationMethod = 'pwd' | 'otp' | 'hwk';
const AUTHENTICATION_METHODS: readonly string[] = ['pwd', 'otp', 'hwk'];
/** The scope of a token that reaches only the second-factor enrolment operations. */
export const SECOND_FACTOR_ENROLMENT_SCOPE = 'second_factor_enrolment';

/** True when the token's user gave a second factor at login. */
export function hasSecondFactorMethod(claims: Pick<AccessTokenClaims, 'amr'>): boolean {
  return claims.amr?.some((method) => method === 'otp' || method === 'hwk') ?? false;
}

export interface AccessTokenSettings {
  secret: Uint8Array<ArrayBuffer>;
  issuer: string;
  audience: string;
}

/**
 * Signs a console access token (RFC 9068 profile: `typ: at+jwt`).
 *
 * @example
 * const jwt = await signAccessToken(settings, { userId, tenantId, jti, expiresAt }, now);
 */
export async function signAccessToken(
  settings: AccessTokenSettings,
  claims: AccessTokenClaims,
  now: Date,
): Promise<string> {
  return new SignJWT({
    tid: claims.tenantId,
    amr: [...(claims.amr ?? ['pwd'])],
    ...(claims.scope ? { scope: claims.scope } : {}),
  })
    .setProtectedHeader({ alg: ALGORITHM, typ: TOKEN_TYPE })
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setSubject(claims.userId)
    .setJti(claims.jti)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
    .sign(settings.secret);
}

export type AccessTokenFailure = 'expired' | 'invalid';

export async function verifyAccessToken(
  settings: AccessTokenSettings,
  token: string,
  now: Date,
): Promise<AccessTokenClaims | AccessTokenFailure> {
  try {
    const { payload } = await jwtVerify(token, settings.secret, {
      algorithms: [ALGORITHM],
      typ: TOKEN_TYPE,
      issuer: settings.issuer,
      audience: settings.audience,
      currentDate: now,
      requiredClaims: ['sub', 'jti', 'exp', 'tid'],
    });
    if (
      typeof payload.sub !== 'string' ||
      typeof payload.jti !== 'string' ||
      typeof payload['tid'] !== 'string'
    ) {
      return 'invalid';
    }
    const amr = Array.isArray(payload['amr'])
      ? (payload['amr'].filter((method) => AUTHENTICATION_METHODS.includes(method)) as AuthenticationMethod[])
      : [];
    return {
      userId: payload.sub,
      tenantId: payload['tid'],
      jti: payload.jti,
      expiresAt: new Date((payload.exp ?? 0) * 1000),
      amr,
      ...(payload['scope'] === SECOND_FACTOR_ENROLMENT_SCOPE ? { scope: SECOND_FACTOR_ENROLMENT_SCOPE } : {}),
    };
  } catch (error) {
    return error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid';
  }
}

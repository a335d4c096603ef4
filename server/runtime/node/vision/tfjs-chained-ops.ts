import type * as Tf from '@tensorflow/tfjs-core';

/**
 * The tensor methods (`t.reshape(…)`, `t.as3D(…)`, …) that `x.op(…)` is `tf.op(x, …)` for. tfjs-core's Node
 * build defines the ops but not these methods: the `@tensorflow/tfjs` umbrella adds them when it loads
 * (tfjs-core's `register_all_chained_ops`, 4.22.0). face-api calls them; the server installs tfjs-core
 * without the umbrella (load-face-api.ts), so it adds them itself, the same list.
 */
const SAME_AS_OP = [
  'abs',
  'acos',
  'acosh',
  'add',
  'all',
  'any',
  'argMax',
  'argMin',
  'asin',
  'asinh',
  'atan',
  'atan2',
  'atanh',
  'batchToSpaceND',
  'batchNorm',
  'broadcastTo',
  'cast',
  'ceil',
  'clipByValue',
  'conv1d',
  'conv2d',
  'cos',
  'cosh',
  'cumprod',
  'cumsum',
  'depthToSpace',
  'divNoNan',
  'div',
  'dot',
  'elu',
  'equal',
  'erf',
  'euclideanNorm',
  'exp',
  'expandDims',
  'expm1',
  'fft',
  'floor',
  'floorDiv',
  'gather',
  'greaterEqual',
  'greater',
  'ifft',
  'irfft',
  'isFinite',
  'isInf',
  'isNaN',
  'leakyRelu',
  'lessEqual',
  'less',
  'logSigmoid',
  'logSoftmax',
  'logSumExp',
  'log',
  'log1p',
  'logicalAnd',
  'logicalNot',
  'logicalOr',
  'logicalXor',
  'matMul',
  'max',
  'maximum',
  'mean',
  'min',
  'minimum',
  'mirrorPad',
  'mod',
  'mul',
  'neg',
  'norm',
  'notEqual',
  'oneHot',
  'onesLike',
  'pad',
  'pool',
  'pow',
  'prelu',
  'prod',
  'reciprocal',
  'relu',
  'relu6',
  'reshape',
  'reverse',
  'rfft',
  'round',
  'rsqrt',
  'selu',
  'sigmoid',
  'sign',
  'sin',
  'sinh',
  'slice',
  'softmax',
  'softplus',
  'spaceToBatchND',
  'split',
  'sqrt',
  'square',
  'squaredDifference',
  'squeeze',
  'step',
  'stridedSlice',
  'sub',
  'sum',
  'tan',
  'tanh',
  'tile',
  'topk',
  'transpose',
  'unique',
  'unstack',
  'zerosLike',
] as const;

type Method = (this: Tf.Tensor, ...args: never[]) => unknown;

/** The methods that are not one op applied to the tensor as it is (the umbrella's own definitions). */
function reshapingMethods(tf: typeof Tf): Record<string, Method> {
  return {
    asScalar(this: Tf.Tensor) {
      tf.util.assert(this.size === 1, () => 'The array must have only 1 element.');
      return tf.reshape(this, []);
    },
    asType: function (this: Tf.Tensor, dtype: Tf.DataType) {
      return tf.cast(this, dtype);
    } as Method,
    as1D(this: Tf.Tensor) {
      return tf.reshape(this, [this.size]);
    },
    as2D: function (this: Tf.Tensor, ...shape: number[]) {
      return tf.reshape(this, shape);
    } as Method,
    as3D: function (this: Tf.Tensor, ...shape: number[]) {
      return tf.reshape(this, shape);
    } as Method,
    as4D: function (this: Tf.Tensor, ...shape: number[]) {
      return tf.reshape(this, shape);
    } as Method,
    as5D: function (this: Tf.Tensor, ...shape: number[]) {
      return tf.reshape(this, shape);
    } as Method,
    concat: function (this: Tf.Tensor, x: Tf.Tensor | Tf.Tensor[], axis?: number) {
      return tf.concat([this, ...(x instanceof tf.Tensor ? [x] : x)], axis);
    } as Method,
    flatten(this: Tf.Tensor) {
      return tf.reshape(this, [this.size]);
    },
    reshapeAs: function (this: Tf.Tensor, x: Tf.Tensor) {
      return tf.reshape(this, x.shape);
    } as Method,
    stack: function (this: Tf.Tensor, x: Tf.Tensor | Tf.Tensor[], axis?: number) {
      return tf.stack([this, ...(x instanceof tf.Tensor ? [x] : x)], axis);
    } as Method,
    toBool(this: Tf.Tensor) {
      return tf.cast(this, 'bool');
    },
    toFloat(this: Tf.Tensor) {
      return tf.cast(this, 'float32');
    },
    toInt(this: Tf.Tensor) {
      return tf.cast(this, 'int32');
    },
    where: function (this: Tf.Tensor, condition: Tf.Tensor, x: Tf.Tensor) {
      return tf.where(condition, this, x);
    } as Method,
  };
}

/**
 * Adds the chained tensor methods to `tf`'s Tensor class, as the umbrella package would; a method already
 * there (the umbrella loaded after all) is left as it is.
 *
 * @example
 * registerChainedOps(require('@tensorflow/tfjs-core'));
 * tf.tensor([1, 2, 3, 4]).as2D(2, 2).shape // [2, 2]
 */
export function registerChainedOps(tf: typeof Tf): void {
  const prototype = tf.Tensor.prototype as unknown as Record<string, Method | undefined>;
  const ops = tf as unknown as Record<string, (...args: unknown[]) => unknown>;
  const methods: Record<string, Method> = reshapingMethods(tf);
  for (const name of SAME_AS_OP) {
    const op = ops[name];
    if (typeof op !== 'function') throw new Error(`tfjs-core ${tf.version_core} has no op ${name}`);
    methods[name] = function (this: Tf.Tensor, ...args: unknown[]) {
      return op(this, ...args);
    } as Method;
  }
  for (const [name, method] of Object.entries(methods)) {
    prototype[name] ??= function (this: Tf.Tensor, ...args: never[]) {
      this.throwIfDisposed();
      return method.apply(this, args);
    };
  }
}

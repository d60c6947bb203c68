"""What the command line trains: a torchvision model or a factory in the user's own file.

resolve_model() checks what needs no model (the file imports, the function or the torchvision
model exists); build_step() then builds the model and its inputs."""

import importlib.util
import inspect
import os

import torch

from .errors import ModelError, UsageError, describe

# Kept for callers that caught the old name.
ModelSpecError = UsageError


class StepSpec:
    """A model, the inputs of one step and the loss that ends it."""

    def __init__(self, model, inputs, loss_fn, targets=None):
        self.model = model
        self.inputs = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
        self.loss_fn = loss_fn
        self.targets = targets


class ModelSource:
    """A torchvision model's name, or a factory function read from the user's file."""

    def __init__(self, spec, torchvision_factory=None, factory=None):
        self.spec = spec
        self.torchvision_factory = torchvision_factory
        self.factory = factory


def parse_shape(text):
    try:
        shape = [int(part) for part in text.lower().split("x")]
    except ValueError:
        shape = []
    if not shape or any(size <= 0 for size in shape):
        raise UsageError("--input: expected sizes joined by x such as 3x224x224, got %r" % text)
    return shape


def _not_class_scores(output):
    if output is None:
        return "None"
    if isinstance(output, dict):
        return "a dict (keys %s)" % ", ".join(repr(key) for key in list(output)[:4])
    return "an object of type " + type(output).__name__


def _classification_step(model, batch, input_shape, spec):
    """Random images and labels; cross entropy over the model's last output dimension."""
    images = torch.randn([batch] + input_shape)
    try:
        with torch.no_grad():
            model.eval()
            output = model(images[:1])
            model.train()
    except Exception as error:  # noqa: BLE001 -- any failure of the user's forward is reported, not raised
        raise ModelError("--model %s: the forward pass on a random input of shape %s failed: %s; fix the model or "
                         "give the --input shape it expects" % (spec, "x".join(map(str, [1] + input_shape)),
                                                                describe(error))) from error
    if not isinstance(output, torch.Tensor):
        raise ModelError("--model %s: the forward pass returned %s, not a tensor of class scores: make forward "
                         "return a tensor, or write a factory FILE.py:FUNCTION returning (model, inputs, loss_fn) "
                         "whose loss takes what forward returns" % (spec, _not_class_scores(output)))
    labels = torch.randint(0, output.shape[-1], (batch,))
    return StepSpec(model, (images,), torch.nn.functional.cross_entropy, labels)


def _torchvision_factory(spec, name):
    import torchvision.models as models  # only needed for torchvision:NAME
    factory = getattr(models, name, None)
    if factory is None or not callable(factory) or name.startswith("_"):
        raise UsageError("--model %s: torchvision.models has no model named %r (see torchvision.models.list_models())"
                         % (spec, name))
    return factory


def _import_factory(spec, path, function):
    if not path.endswith(".py"):
        raise UsageError("--model %s: expected a Python file FILE.py before the colon, got %r" % (spec, path))
    if not os.path.isfile(path):
        raise UsageError("--model %s: no such file %r" % (spec, path))
    module_spec = importlib.util.spec_from_file_location("rematlens_user_model", path)
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:  # noqa: BLE001 -- a file that does not import is the user's to fix
        raise ModelError("--model %s: %s cannot be imported: %s; fix the file" % (spec, path, describe(error))) \
            from error
    factory = getattr(module, function, None)
    if not callable(factory):
        defined = sorted(name for name, value in vars(module).items()
                         if inspect.isfunction(value) and value.__module__ == module.__name__)
        raise UsageError("--model %s: %s defines no function %r (its functions: %s)"
                         % (spec, path, function, ", ".join(defined) or "none"))
    return factory


def resolve_model(spec):
    """spec is torchvision:NAME or path/to/file.py:FUNCTION; checked without building anything."""
    prefix, _, rest = spec.rpartition(":")
    if not prefix or not rest:
        raise UsageError("--model: expected torchvision:NAME or FILE.py:FUNCTION, got %r" % spec)
    if prefix == "torchvision":
        return ModelSource(spec, torchvision_factory=_torchvision_factory(spec, rest))
    return ModelSource(spec, factory=_import_factory(spec, prefix, rest))


def _call_factory(source, batch):
    factory = source.factory
    try:
        takes_batch = "batch" in inspect.signature(factory).parameters
        return factory(batch=batch) if takes_batch else factory()
    except Exception as error:  # noqa: BLE001
        raise ModelError("--model %s: the factory raised %s; fix the factory" % (source.spec, describe(error))) \
            from error


def build_step(source, batch, input_shape):
    """FUNCTION(batch=B) (or FUNCTION()) returns an nn.Module or a tuple (model, inputs, loss_fn[, targets])."""
    if source.torchvision_factory is not None:
        try:
            model = source.torchvision_factory(weights=None)  # never downloads weights
        except Exception as error:  # noqa: BLE001
            raise ModelError("--model %s: torchvision could not build it: %s" % (source.spec, describe(error))) \
                from error
        return _classification_step(model, batch, input_shape or [3, 224, 224], source.spec)
    result = _call_factory(source, batch)
    where = "--model %s" % source.spec
    if isinstance(result, torch.nn.Module):
        if input_shape is None:
            raise UsageError("%s returned a module only: give --input (e.g. 3x224x224) to feed it" % where)
        return _classification_step(result, batch, input_shape, source.spec)
    if isinstance(result, tuple) and len(result) in (3, 4) and isinstance(result[0], torch.nn.Module) \
            and callable(result[2]):
        return StepSpec(*result)
    raise ModelError("%s: the factory must return an nn.Module or (model, inputs, loss_fn[, targets]), got %s; "
                     "fix the factory" % (where, _not_class_scores(result) if not isinstance(result, tuple)
                                          else "a tuple of %d" % len(result)))


def load_step(spec, batch, input_shape):
    """resolve_model and build_step in one."""
    return build_step(resolve_model(spec), batch, input_shape)

"""What the command line trains: a torchvision model or a factory in the user's own file."""

import importlib.util
import inspect
import os

import torch


class ModelSpecError(ValueError):
    pass


class StepSpec:
    """A model, the inputs of one step and the loss that ends it."""

    def __init__(self, model, inputs, loss_fn, targets=None):
        self.model = model
        self.inputs = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
        self.loss_fn = loss_fn
        self.targets = targets


def parse_shape(text):
    try:
        shape = [int(part) for part in text.lower().split("x")]
    except ValueError:
        shape = []
    if not shape or any(size <= 0 for size in shape):
        raise ModelSpecError("--input: expected sizes joined by x such as 3x224x224, got %r" % text)
    return shape


def _classification_step(model, batch, input_shape):
    """Random images and labels; cross entropy over the model's last output dimension."""
    images = torch.randn([batch] + input_shape)
    with torch.no_grad():
        model.eval()
        classes = model(images[:1]).shape[-1]
        model.train()
    labels = torch.randint(0, classes, (batch,))
    return StepSpec(model, (images,), torch.nn.functional.cross_entropy, labels)


def _torchvision_model(name):
    import torchvision.models as models  # only needed for torchvision:NAME
    factory = getattr(models, name, None)
    if factory is None or not callable(factory):
        raise ModelSpecError("--model torchvision:%s: torchvision.models has no model named %r" % (name, name))
    return factory(weights=None)  # never downloads weights


def _load_factory(path, function):
    if not os.path.isfile(path):
        raise ModelSpecError("--model %s:%s: no such file %r" % (path, function, path))
    spec = importlib.util.spec_from_file_location("rematlens_user_model", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    factory = getattr(module, function, None)
    if not callable(factory):
        raise ModelSpecError("--model %s:%s: %s defines no function %r" % (path, function, path, function))
    return factory


def _from_factory_result(result, batch, input_shape, where):
    if isinstance(result, torch.nn.Module):
        if input_shape is None:
            raise ModelSpecError("%s returned a module only: give --input (e.g. 3x224x224) to feed it" % where)
        return _classification_step(result, batch, input_shape)
    if isinstance(result, tuple) and len(result) in (3, 4) and isinstance(result[0], torch.nn.Module):
        return StepSpec(*result)
    raise ModelSpecError("%s must return an nn.Module or (model, inputs, loss_fn[, targets]), got %s"
                         % (where, type(result).__name__))


def load_step(spec, batch, input_shape):
    """spec is torchvision:NAME or path/to/file.py:FUNCTION; FUNCTION(batch=B) (or FUNCTION())
    returns an nn.Module or a tuple (model, inputs, loss_fn[, targets])."""
    prefix, _, rest = spec.rpartition(":")
    if not prefix or not rest:
        raise ModelSpecError("--model: expected torchvision:NAME or FILE.py:FUNCTION, got %r" % spec)
    if prefix == "torchvision":
        return _classification_step(_torchvision_model(rest), batch, input_shape or [3, 224, 224])
    factory = _load_factory(prefix, rest)
    takes_batch = "batch" in inspect.signature(factory).parameters
    result = factory(batch=batch) if takes_batch else factory()
    return _from_factory_result(result, batch, input_shape, "--model %s" % spec)
